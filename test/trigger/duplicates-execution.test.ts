/**
 * Duplicate dropping through n8n's engine: a delivery_id counts as seen only once its execution
 * ran, so whatever stopped the first attempt, the service's retry still runs.
 */
import { randomUUID } from 'node:crypto';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

import { forgetProcessMemory } from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { processedData } from '../harness/engine';
import { deliver, delivery, envelope, type Outcome, statusUpdate } from './support';

afterEach(() => {
	vi.restoreAllMocks();
});

describe('duplicates: an id counts only once its execution ran', () => {
	it('runs the retry when n8n could not start the execution of the first attempt', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const failed = await deliver(delivery(body), { workflowId, failExecutionStart: true });
		expect(failed.status).toBe(500);
		expect(failed.run).toBeUndefined();

		// The service retries the same bytes; n8n reloads the static data it stored.
		const retry = await deliver(delivery(body), { workflowId, staticData: failed.staticData });
		expect(retry.status).toBe(200);
		expect(retry.items).toHaveLength(1);
		expect(retry.after).toHaveLength(1);
	});

	it('answers only once the execution started and recorded the delivery, so a delivery n8n dropped is retried', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		// n8n registered the execution, then stopped before running it: the service gets no 200.
		const died = await deliver(delivery(body), { workflowId, executionDies: true });
		expect(died.status).not.toBe(200);
		expect(died.run).toBeUndefined();
		// What the process knew died with it; n8n restarts and the service retries.
		forgetProcessMemory();

		const retry = await deliver(delivery(body), { workflowId, staticData: died.staticData });
		expect(retry.status).toBe(200);
		expect(retry.response.body).toEqual({ message: 'Accepted' });
		expect(retry.after).toHaveLength(1);
	});

	it("answers 500 when n8n's processed-data store fails, and runs the retry", async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		vi.spyOn(processedData, 'checkProcessedAndRecord').mockRejectedValue(new Error('connection terminated'));
		const failed = await deliver(delivery(body), { workflowId });
		expect(failed.status).toBe(500);
		expect(failed.run?.error?.message).toMatch(/Could not check/);
		expect(failed.after).toEqual([]);
		vi.restoreAllMocks();

		const retry = await deliver(delivery(body), { workflowId, staticData: failed.staticData });
		expect(retry.status).toBe(200);
		expect(retry.after).toHaveLength(1);
	});

	it('runs the retry when the return receipt could not be stored while another execution saved its ids', async () => {
		const workflowId = randomUUID();
		const receipt = envelope('rr.created', {
			id: '77',
			type: 'letter',
			rr_type: 'rr',
			tracking_code: 'YA1BR',
			file: { name: 'rr.pdf', base64: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') },
		});
		let storageFails!: () => void;
		let storing!: () => void;
		const gate = new Promise<void>((resolve) => (storageFails = resolve));
		const storageStarted = new Promise<void>((resolve) => (storing = resolve));
		vi.spyOn(Container.get(BinaryDataService), 'store').mockImplementationOnce(async () => {
			storing();
			await gate;
			throw new Error('no space left on device');
		});
		const pending = deliver(delivery(receipt), { workflowId });
		await storageStarted;
		// Meanwhile another delivery runs to its end, and n8n saves what its execution wrote.
		const other = await deliver(delivery(statusUpdate()), { workflowId, executionStaticData: 'reloaded' });
		expect(other.items).toHaveLength(1);
		storageFails();
		const failed = await pending;
		expect(failed.status).toBe(500);
		expect(failed.run).toBeUndefined();

		const retry = await deliver(delivery(receipt), { workflowId, staticData: other.staticData });
		expect(retry.items).toHaveLength(1);
		expect(retry.items[0].binary?.data).toBeDefined();
	});

	it('answers a copy that arrives while the first is on its way once the first ran, without a second execution', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		let copy: Promise<Outcome> | undefined;
		const first = await deliver(delivery(body), {
			workflowId,
			beforeExecution: () => {
				copy = deliver(delivery(body), { workflowId });
			},
		});
		expect(first.after).toHaveLength(1);
		const second = await copy!;
		expect(second.status).toBe(200);
		expect(second.response.body).toEqual({ message: expect.stringMatching(/already processed/) });
		expect(second.run).toBeUndefined();
	});

	it('lets the copy take over when the first never ran (n8n stopped before its execution)', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		let copy: Promise<Outcome> | undefined;
		const first = await deliver(delivery(body), {
			workflowId,
			executionDies: true,
			beforeExecution: () => {
				copy = deliver(delivery(body), { workflowId });
			},
		});
		expect(first.status).toBe(0);
		const second = await copy!;
		expect(second.status).toBe(200);
		expect(second.after).toHaveLength(1);
	});
});
