// The operations of this resource, one line each: the router and the Operation list read them here.
// Creating a registered e-mail is named by the spec but not described: it is reachable through
// "Custom API Call" (see the README), not guessed here.
export * as cancel from './cancel.operation';
export * as downloadFile from './downloadFile.operation';
export * as get from './get.operation';
