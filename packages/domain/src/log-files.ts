import { z } from 'zod';
import { fieldNotValid, fieldRequired, fieldTooLong } from './messages.js';
import { hasControlCharacter } from './text.js';

/**
 * A machine's log files (001 §2 'Request upload of log files', 'View log files'; §3 'Log file: fileName,
 * lastModified'; §7 uploadlogfiles and logfiles). On the provider's request (the `uploadLogFiles` command of
 * the live channel) the agent uploads its own log files over HTTP, authenticated by its machine credential;
 * the portal keeps the newest upload of each file name and serves it as a download.
 */
export const LOG_FILES = {
  /** The largest upload of one file; the agent sends the tail of a larger file. */
  maxBytes: 5 * 1024 * 1024,
  /** The portal keeps at most this many files per machine (the most recently uploaded). */
  maxFilesPerMachine: 20,
  fileNameMax: 100,
} as const;

const FILE_NAME_LABEL = 'File name';

/**
 * A log file's name: one path segment (no '/' or '\\', not '.' or '..'), no control characters, at most
 * 100 characters. It names the file at the portal and in the download.
 */
export const logFileNameSchema = z
  .string({ error: fieldRequired(FILE_NAME_LABEL) })
  .min(1, fieldRequired(FILE_NAME_LABEL))
  .max(LOG_FILES.fileNameMax, fieldTooLong(FILE_NAME_LABEL, LOG_FILES.fileNameMax))
  .refine((name) => isLogFileName(name), fieldNotValid(FILE_NAME_LABEL));

export function isLogFileName(name: string): boolean {
  return name !== '.' && name !== '..' && name.trim() === name && !/[/\\]/.test(name) && !hasControlCharacter(name);
}

/** One file in the list of a machine's log files (GET …/logfiles without a file name). */
export interface LogFileEntry {
  fileName: string;
  /** ISO time the file was last written on the machine. */
  lastModified: string;
}

/** The query of an agent's upload: the file's name, and when it was last written on the machine (default: now). */
export const logFileUploadQuerySchema = z.object({
  fileName: logFileNameSchema,
  lastModified: z.iso.datetime({ offset: true }).optional(),
});
