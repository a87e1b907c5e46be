/**
 * Backup schedules (000 §2 and §5 'Schedule picker', 002 §4.3 and §5.6): cron syntax and validation,
 * the picker's model, descriptions and run times in a machine's time zone. The parts live in
 * ./schedule/; this file is the one entry.
 */
export * from './schedule/describe.js';
export * from './schedule/form.js';
export * from './schedule/picker.js';
export * from './schedule/presets.js';
export * from './schedule/runs.js';
export * from './schedule/syntax.js';
export { isValidTimeZone } from './schedule/zone.js';
