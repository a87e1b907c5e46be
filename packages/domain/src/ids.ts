import { z } from 'zod';
import { ID_MAX } from './paths.js';

/** An id in a message or body: a positive whole number the database can hold. */
export const idSchema = z.number().int().positive().max(ID_MAX);

/** An id path (or query) parameter: the text of a positive whole number the database can hold. */
export const idParam = z.coerce.number().int().positive().max(ID_MAX);
