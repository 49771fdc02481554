export * as getBalance from './getBalance.operation';
export * as getLogo from './getLogo.operation';
