import type { IDataDeduplicator } from 'n8n-workflow';

/**
 * A failure of one call to the store: `before` it wrote anything (the database was not reached),
 * or `after` its write landed (the connection dropped before the answer came back).
 */
export interface StoreFault {
	/** Which call fails, counting from 0 the workflow's calls since the faults were set. */
	call: number;
	when: 'before' | 'after';
}

export class MemoryProcessedDataStore implements IDataDeduplicator {
	calls: number;
	failCalls(workflowId: string, faults: StoreFault[]): void;
	callsSinceFaults(workflowId: string): number;
	checkProcessedAndRecord: IDataDeduplicator['checkProcessedAndRecord'];
	removeProcessed: IDataDeduplicator['removeProcessed'];
	clearAllProcessedItems: IDataDeduplicator['clearAllProcessedItems'];
	getProcessedDataCount: IDataDeduplicator['getProcessedDataCount'];
}
