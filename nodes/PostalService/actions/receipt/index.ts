// The operations of this resource, one line each: the router and the Operation list read them here.
export * as get from './get.operation';
