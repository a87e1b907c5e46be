export * from './accounts.js';
export * from './api-tokens.js';
export * from './backup.js';
export * from './images.js';
export * from './mail.js';
export * from './notifications.js';
export * from './storage.js';
export * from './task-overview.js';
