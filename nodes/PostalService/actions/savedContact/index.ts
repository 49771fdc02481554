export * as update from './update.operation';
