export * as reprocess from './reprocess.operation';
export * as send from './send.operation';
