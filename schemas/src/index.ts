export * from './chart';
export * from './config';
export * from './enums';
export * from './envelope';
export * from './errors';
export * from './wire';
