import { pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

/**
 * Resellers' logos and favicons (000 §2, §5; issue 17), as the server made them on upload: resized, PNG,
 * metadata stripped. Kept in the database so every server instance serves the same files; the name carries
 * the content hash, so a changed image gets a new name and a name's bytes never change (long cache headers).
 * The bytes are base64 text: drizzle 0.45 has no bytea column and PGlite and pg return bytea differently.
 */
export const resellerImages = pgTable('reseller_images', {
  fileName: varchar('file_name', { length: 100 }).primaryKey(),
  contentBase64: text('content_base64').notNull(),
  createdAt: createdAt(),
});
