export * as cancel from './cancel.operation';
export * as create from './create.operation';
export * as downloadFile from './downloadFile.operation';
export * as get from './get.operation';
export * as getPrice from './getPrice.operation';
