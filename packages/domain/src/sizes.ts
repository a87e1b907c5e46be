import type { BadgeVariant, StorageQuotaUnit } from './enums.js';

/**
 * Sizes and storage display. The spec defines a megabyte as 1,048,576 bytes (000 §9), so every unit
 * here is binary (1 KB = 1024 B, 1 GB = 1024 MB, ...) and keeps the familiar KB/MB/GB/TB/PB labels the
 * spec's quota units use, rather than KiB/MiB: what a user types as '10 GB' is shown back as '10 GB'.
 */

export const BYTES_PER_KB = 1024;
/** 000 §9: 1,048,576 bytes per MB. */
export const BYTES_PER_MB = 1_048_576;

/** Bytes per template quota unit (000 §3 'Storage quota units for templates: MB, GB, TB, PB'). */
export const QUOTA_UNIT_BYTES: Readonly<Record<StorageQuotaUnit, number>> = {
  MB: BYTES_PER_MB,
  GB: BYTES_PER_MB * 1024,
  TB: BYTES_PER_MB * 1024 ** 2,
  PB: BYTES_PER_MB * 1024 ** 3,
};

const QUOTA_UNITS_DESCENDING: readonly StorageQuotaUnit[] = ['PB', 'TB', 'GB', 'MB'];

/**
 * A template quota in bytes. A JavaScript number holds whole bytes exactly only up to 2^53 (8 PB); the
 * template limits (1,024,000,000,000 of any unit, 000 §5) go far beyond, so use quotaToBytesExact
 * where the exact figure matters (storage, billing) and this one for display and comparisons.
 */
export function quotaToBytes(value: number, unit: StorageQuotaUnit): number {
  return value * QUOTA_UNIT_BYTES[unit];
}

/** A whole-number template quota in bytes, exactly. Throws a RangeError for a fractional value. */
export function quotaToBytesExact(value: number, unit: StorageQuotaUnit): bigint {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Quota must be a whole number, got ${value}`);
  return BigInt(value) * BigInt(QUOTA_UNIT_BYTES[unit]);
}

/** Bytes expressed in a template quota unit (may be fractional). */
export function bytesToQuotaUnit(bytes: number, unit: StorageQuotaUnit): number {
  return bytes / QUOTA_UNIT_BYTES[unit];
}

/**
 * The largest unit that expresses the bytes as a whole number of at least 1 (to prefill a quota field
 * from a stored byte count); MB, possibly fractional, when no unit divides exactly.
 */
export function quotaFromBytes(bytes: number): { value: number; unit: StorageQuotaUnit } {
  for (const unit of QUOTA_UNITS_DESCENDING) {
    const value = bytes / QUOTA_UNIT_BYTES[unit];
    if (value >= 1 && Number.isInteger(value)) return { value, unit };
  }
  return { value: bytes / BYTES_PER_MB, unit: 'MB' };
}

export const megabytesToBytes = (megabytes: number): number => megabytes * BYTES_PER_MB;
export const bytesToMegabytes = (bytes: number): number => bytes / BYTES_PER_MB;

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'] as const;

/**
 * A human-readable size: whole bytes below 1 KB ('512 B'), otherwise the largest binary unit with at
 * most one decimal and no trailing '.0' (1536 → '1.5 KB', 1,048,576 → '1 MB'). A value that rounds up
 * to 1024 of a unit moves to the next unit ('1 MB', not '1024 KB'). Negative sizes keep their sign;
 * a non-finite input (a missing figure) gives an empty text.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '';
  if (bytes < 0) return `-${formatBytes(-bytes)}`;
  if (bytes < BYTES_PER_KB) return `${Math.round(bytes)} B`;
  let unit = 0;
  let value = bytes;
  while (value >= BYTES_PER_KB && unit < SIZE_UNITS.length - 1) {
    value /= BYTES_PER_KB;
    unit++;
  }
  let rounded = Math.round(value * 10) / 10;
  if (rounded >= BYTES_PER_KB && unit < SIZE_UNITS.length - 1) {
    rounded = Math.round((value / BYTES_PER_KB) * 10) / 10;
    unit++;
  }
  return `${Number.isInteger(rounded) ? rounded : rounded.toFixed(1)} ${SIZE_UNITS[unit]}`;
}

/** A size given in megabytes, human-readable (001 §2 'Storage quota (megabytes shown in human-readable form)'). */
export function formatMegabytes(megabytes: number): string {
  return formatBytes(megabytesToBytes(megabytes));
}

// --- Unlimited values -----------------------------------------------------------------------------

export const UNLIMITED_TEXT = 'Unlimited';

/** 000 §3: a machine limit of 0 or less means Unlimited. */
export function isUnlimitedMachineLimit(limit: number): boolean {
  return limit <= 0;
}

export function machineLimitText(limit: number): string {
  return isUnlimitedMachineLimit(limit) ? UNLIMITED_TEXT : String(limit);
}

/** 002 §2.6, §3: a negative number of snapshots to keep means Unlimited (0 means snapshots are off). */
export function snapshotsToKeepText(count: number): string {
  return count < 0 ? UNLIMITED_TEXT : String(count);
}

/** 000 §3: a capacity of -1 means unlimited; any negative capacity is read the same way. */
export const UNLIMITED_CAPACITY = -1;

export function isUnlimitedCapacity(capacityInBytes: number): boolean {
  return capacityInBytes < 0;
}

export function capacityText(capacityInBytes: number): string {
  return isUnlimitedCapacity(capacityInBytes) ? UNLIMITED_TEXT : formatBytes(capacityInBytes);
}

// --- Usage bars (000 §9, 001 §4, 002 §8.5) ---------------------------------------------------------

/** 000 §9: green under 75 %, orange from 75 % to under 95 %, red from 95 %. */
export const USAGE_THRESHOLDS = { warningFromPercent: 75, dangerFromPercent: 95 } as const;

export const STORAGE_TEXTS = {
  /** 000 §9: the package usage bar while loading. */
  calculating: 'Calculating...',
  /** 001 §4: the machine storage widget while loading. */
  loading: 'Loading',
  /** 000 §8, 001 §4, 002 §8.5: shown on a full bar when the storage figures cannot be fetched. */
  failed: 'Could not obtain storage size',
} as const;

/**
 * Used share of a total, 0..100. An unlimited total (negative) is never full, so 0 %; a zero total
 * is full as soon as anything is used.
 */
export function usagePercentage(usedBytes: number, totalBytes: number): number {
  if (isUnlimitedCapacity(totalBytes)) return 0;
  if (totalBytes === 0) return usedBytes > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, (usedBytes / totalBytes) * 100));
}

/** 000 §9: the bar colour for a used percentage (orange is Bootstrap's warning). */
export function usageBarVariant(percent: number): BadgeVariant {
  if (percent < USAGE_THRESHOLDS.warningFromPercent) return 'success';
  if (percent < USAGE_THRESHOLDS.dangerFromPercent) return 'warning';
  return 'danger';
}

/** 001 §4: 'Used: X of Y, available: Z'. Y and Z read 'Unlimited' when negative. */
export function storageUsageText(figures: StorageFigures): string {
  return `Used: ${formatBytes(figures.usedSpaceInBytes)} of ${capacityText(figures.totalSpaceInBytes)}, available: ${capacityText(figures.availableSpaceInBytes)}`;
}

/**
 * The figures a storage bar shows. For a package the total is packageQuotaSizeInBytes (000 §3), for a
 * machine maxBackupSizePerMachineInBytes (001 §3).
 */
export interface StorageFigures {
  usedSpaceInBytes: number;
  totalSpaceInBytes: number;
  availableSpaceInBytes: number;
}

/** The figures of a used amount against a quota; an unlimited (negative) quota leaves unlimited space. */
export function storageFigures(usedBytes: number, totalBytes: number): StorageFigures {
  return {
    usedSpaceInBytes: usedBytes,
    totalSpaceInBytes: totalBytes,
    availableSpaceInBytes: isUnlimitedCapacity(totalBytes) ? UNLIMITED_CAPACITY : Math.max(0, totalBytes - usedBytes),
  };
}

export type StorageBarState = { kind: 'loading' } | { kind: 'failed' } | ({ kind: 'loaded' } & StorageFigures);

export interface StorageBar {
  percent: number;
  variant: BadgeVariant;
  text: string;
  /** Striped and animated while loading. */
  animated: boolean;
}

/**
 * The storage bar of a package row (000 §2) or a machine (001 §4). While loading, a full animated grey
 * bar with the loading text ('Loading' by default; the package table passes 'Calculating...'); on
 * failure a full bar with 'Could not obtain storage size' (grey, ours: a red full bar would read as
 * 'storage full'); when loaded, the used share coloured by the thresholds of 000 §9.
 */
export function storageBar(state: StorageBarState, loadingText: string = STORAGE_TEXTS.loading): StorageBar {
  switch (state.kind) {
    case 'loading':
      return { percent: 100, variant: 'secondary', text: loadingText, animated: true };
    case 'failed':
      return { percent: 100, variant: 'secondary', text: STORAGE_TEXTS.failed, animated: false };
    case 'loaded': {
      const percent = usagePercentage(state.usedSpaceInBytes, state.totalSpaceInBytes);
      return { percent, variant: usageBarVariant(percent), text: storageUsageText(state), animated: false };
    }
  }
}
