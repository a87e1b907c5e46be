/** The form schemas of the three specification documents, one file per area (see each file). */

export * from './billing-server.js';
export * from './confirm.js';
export * from './customer.js';
export * from './fields.js';
export * from './machine.js';
export * from './package.js';
export * from './package-template.js';
export * from './reseller-settings.js';
export * from './restic.js';
export * from './restore.js';
export * from './signup.js';
export * from './storage.js';
export * from './task.js';
export * from './user.js';
