/**
 * n8n's processed-data store (what `this.helpers.checkProcessedAndRecord` reaches, behind the
 * Remove Duplicates node), kept in memory for the harness and the release runner.
 *
 * n8n-core ships only the service (`DataDeduplicationService`); the store itself lives in n8n's
 * server (`packages/cli/src/deduplication/deduplication-helper.ts`, a row per workflow and context
 * in the `processed_data` table). This stand-in follows what that helper does in n8n 2.41.1 for
 * the `entries` mode: values are kept as MD5 hashes (base64), one row per workflow and context
 * (`n:<node id>` for the node scope), the oldest dropped beyond `maxEntries`; a value repeated
 * within one call is not seen as processed by that call. Like the server, it reads the row, then
 * writes it back in a second step without a lock, so concurrent callers interleave as they do
 * against the database. Plain CommonJS, so each release's own Node runs it too.
 */
'use strict';
const { createHash } = require('node:crypto');

// A database round trip: other work may run between the read and the write.
const roundTrip = () => new Promise((resolve) => setImmediate(resolve));

function contextOf(scope, contextData) {
	if (scope !== 'node') return '';
	if (!contextData.node) throw new Error("No node information has been provided and so cannot use scope 'node'");
	return `n:${contextData.node.id}`;
}

const hash = (value) => createHash('md5').update(value.toString()).digest('base64');

class MemoryProcessedDataStore {
	rows = new Map();
	faults = new Map();
	/** How many check-and-record calls reached the store (to see that a node used it). */
	calls = 0;

	/** Makes the given calls about one workflow fail (replacing earlier faults of that workflow). */
	failCalls(workflowId, faults) {
		this.faults.set(workflowId, { calls: 0, faults });
	}

	/** How many calls about the workflow were made since its faults were set. */
	callsSinceFaults(workflowId) {
		return this.faults.get(workflowId)?.calls ?? 0;
	}

	/** How the call fails, if it does, counting it among the workflow's calls since its faults were set. */
	faultOf(contextData) {
		const entry = this.faults.get(contextData.workflow.id ?? '');
		if (!entry) return undefined;
		const call = entry.calls++;
		return entry.faults.find((fault) => fault.call === call)?.when;
	}

	keyOf(scope, contextData) {
		if (!contextData.workflow.id) throw new Error('The workflow has no id');
		return `${contextData.workflow.id}\u0000${contextOf(scope, contextData)}`;
	}

	// Rows are stored serialized, as a database returns a fresh copy on every read.
	async read(key) {
		await roundTrip();
		const text = this.rows.get(key);
		return text === undefined ? undefined : JSON.parse(text);
	}

	async update(key, row) {
		await roundTrip();
		this.rows.set(key, JSON.stringify(row));
	}

	// The table's primary key is (workflow, context): a second insert of one row fails, as it does
	// when two callers both found no row.
	async insert(key, row) {
		await roundTrip();
		if (this.rows.has(key)) throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
		this.rows.set(key, JSON.stringify(row));
	}

	async checkProcessedAndRecord(items, scope, contextData, options) {
		this.calls++;
		if (options.mode !== 'entries') throw new Error(`The harness store only keeps mode "entries", not "${options.mode}"`);
		const when = this.faultOf(contextData);
		if (when === 'before') throw new Error('Connection terminated unexpectedly');
		const result = await this.record(items, scope, contextData, options);
		if (when === 'after') throw new Error('Connection terminated unexpectedly');
		return result;
	}

	async record(items, scope, contextData, options) {
		const key = this.keyOf(scope, contextData);
		const hashed = items.map(hash);
		const row = await this.read(key);
		if (!row) {
			const data = options.maxEntries ? hashed.slice(Math.max(0, hashed.length - options.maxEntries)) : hashed;
			await this.insert(key, { mode: options.mode, data });
			return { new: items, processed: [] };
		}
		if (row.mode !== options.mode) throw new Error('Deduplication data was saved with another mode');
		const known = new Set(row.data);
		const result = { new: [], processed: [] };
		hashed.forEach((value, index) => {
			if (known.has(value)) result.processed.push(items[index]);
			else {
				result.new.push(items[index]);
				row.data.push(value);
			}
		});
		if (options.maxEntries) row.data.splice(0, Math.max(0, row.data.length - options.maxEntries));
		await this.update(key, row);
		return result;
	}

	// The trigger only checks and records: n8n's other calls to the store are never made here.
	async removeProcessed() {
		throw new Error('removeProcessed is not used by the tests');
	}

	async clearAllProcessedItems() {
		throw new Error('clearAllProcessedItems is not used by the tests');
	}

	async getProcessedDataCount() {
		throw new Error('getProcessedDataCount is not used by the tests');
	}
}

module.exports = { MemoryProcessedDataStore };
