export * from './account.js';
export * from './enums.js';
export * from './envelope.js';
export * from './initial-data.js';
export * from './layout.js';
export * from './messages.js';
export * from './permissions.js';
export * from './routes.js';
