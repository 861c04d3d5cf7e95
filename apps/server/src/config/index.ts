export * from './app-config';
export * from './env';
export * from './config.module';
