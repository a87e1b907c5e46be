import { z } from 'zod';
import type { ExclusionPlatform } from '../exclusions.js';
import { fieldNotValid, fieldRequired, fieldTooLong, MESSAGES } from '../messages.js';
import { chosenItemsValid, RESTORE_CONFLICT_CHOICES } from '../restore.js';
import { hasControlCharacter } from '../text.js';
import { checkbox, whenFieldsValid } from './fields.js';
import { checkItemsChosen, chosenItemsField } from './task.js';

/**
 * Restore to the machine (issue 14; BACKUP_RESTORE of 001 §3, no screen in the specification): the chosen items
 * of a run's snapshot (or everything) are written by the machine's agent with `restic restore`, either back
 * where they were backed up from (the original place: restic's `--target /`, overwriting files of the same
 * name) or below another folder of the machine.
 */

/** Where the items go: back to their original place, or below another folder of the machine. */
export const RESTORE_TARGETS = ['ORIGINAL', 'FOLDER'] as const;
export type RestoreTarget = (typeof RESTORE_TARGETS)[number];

export const RESTORE_FORM_LABELS = {
  target: 'Restore to',
  targetFolder: 'Target folder',
  items: 'Backed-up item',
  existingFiles: 'Files that already exist',
} as const;

/** The longest target folder the portal takes (as a snapshot path). */
export const RESTORE_FOLDER_MAX = 4096;

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\[^\\/]+[\\/][^\\/]+)/;

/**
 * Whether `path` is an absolute folder of a machine of that platform: '/…' on Linux and macOS; 'C:\…' (or
 * 'C:/…') or a UNC share '\\server\share…' on Windows; either form when the platform is not known.
 */
export function isAbsoluteMachinePath(path: string, platform: ExclusionPlatform | null): boolean {
  const unix = path.startsWith('/');
  const windows = WINDOWS_ABSOLUTE.test(path);
  if (platform === 'UNIX') return unix;
  if (platform === 'WINDOWS') return windows;
  return unix || windows;
}

const L = RESTORE_FORM_LABELS;

/**
 * The restore request (POST ROUTES.restore.restoreToMachine): a requestId the browser makes per submission (the
 * same id sent again is answered once, 002 §7.8's rule for commands), all items or at least one chosen item
 * ('At least one item must be selected.', as the download), and the target: ORIGINAL, or FOLDER with an
 * absolute folder of the machine's platform ('Target folder is required', 'Target folder must be an absolute
 * folder of the backup machine', control characters 'Target folder is not valid'). Chosen items are paths
 * of the snapshot (chosenItemsValid); with restore-all the list is sent empty, and targetFolder is '' unless
 * the target is FOLDER. existingFiles (issue 31) says what happens to a file already where a restored one goes;
 * left out (callers of issue 14's API) it is OVERWRITE, restic's own behaviour, while the dialog starts from
 * KEEP_BOTH, which loses nothing.
 */
export function restoreRequestSchemaFor(platform: ExclusionPlatform | null) {
  return z
    .object({
      requestId: z.string({ error: MESSAGES.liveChannel.invalidMessage }).trim().min(1).max(100),
      restoreAllItems: checkbox.default(false),
      backedUpItemsToRestore: chosenItemsField,
      target: z.enum(RESTORE_TARGETS, { error: fieldNotValid(L.target) }),
      targetFolder: z
        .string({ error: fieldNotValid(L.targetFolder) })
        .trim()
        .max(RESTORE_FOLDER_MAX, fieldTooLong(L.targetFolder, RESTORE_FOLDER_MAX))
        .refine((v) => !hasControlCharacter(v), fieldNotValid(L.targetFolder))
        .nullish()
        .transform((v) => v ?? ''),
      existingFiles: z.enum(RESTORE_CONFLICT_CHOICES, { error: fieldNotValid(L.existingFiles) }).default('OVERWRITE'),
    })
    .superRefine(
      (form, ctx) => {
        const chosen = checkItemsChosen(
          ctx,
          'backedUpItemsToRestore',
          form.restoreAllItems,
          form.backedUpItemsToRestore,
        );
        if (chosen && !form.restoreAllItems && !chosenItemsValid(form.backedUpItemsToRestore)) {
          ctx.addIssue({ code: 'custom', message: fieldNotValid(L.items), path: ['backedUpItemsToRestore'] });
        }
        if (form.target !== 'FOLDER') return;
        if (form.targetFolder === '') {
          ctx.addIssue({ code: 'custom', message: fieldRequired(L.targetFolder), path: ['targetFolder'] });
        } else if (!isAbsoluteMachinePath(form.targetFolder, platform)) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.restore.targetFolderNotAbsolute, path: ['targetFolder'] });
        }
      },
      whenFieldsValid('restoreAllItems', 'backedUpItemsToRestore', 'target', 'targetFolder'),
    )
    .transform((form) => ({
      requestId: form.requestId,
      restoreAllItems: form.restoreAllItems,
      backedUpItemsToRestore: form.restoreAllItems ? [] : form.backedUpItemsToRestore,
      target: form.target,
      targetFolder: form.target === 'FOLDER' ? form.targetFolder : '',
      existingFiles: form.existingFiles,
    }));
}

/** The route table's schema: a folder absolute in either platform's form (the server checks the machine's). */
export const restoreRequestSchema = restoreRequestSchemaFor(null);
export type RestoreRequestForm = z.input<typeof restoreRequestSchema>;
export type RestoreRequest = z.output<typeof restoreRequestSchema>;
