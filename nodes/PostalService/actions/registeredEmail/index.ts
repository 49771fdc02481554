// Creating a registered e-mail is named by the interface but not described, so not guessed here.
export * as cancel from './cancel.operation';
export * as downloadFile from './downloadFile.operation';
export * as get from './get.operation';
