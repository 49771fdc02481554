// The operations of this resource, one line each: the router and the Operation list read them here.
export * as getMany from './getMany.operation';
