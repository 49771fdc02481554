/**
 * Duplicate dropping through n8n's engine: what is remembered, where, and when. Each workflow id
 * stands for one workflow; static data is carried from call to call as n8n stores it.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

import { DEDUP_WINDOW, forgetProcessMemory } from '../../nodes/PostalServiceTrigger/deliveryMemory';
import { processedData } from '../harness/engine';
import {
	deliver,
	delivery,
	envelope,
	serviceTime,
	SECRET,
	sign,
	TRIGGER_NAME,
	type Delivery,
	statusUpdate,
	type Outcome,
} from './support';

afterEach(() => {
	vi.restoreAllMocks();
});

/** A signed delivery whose body is given as text, for numbers JSON.stringify cannot write. */
function rawDelivery(text: string): Delivery {
	const request = delivery(Buffer.from(text));
	request.headers['x-webhook-signature'] = sign(text, SECRET);
	return request;
}

describe('duplicates: production and the test environment are separate', () => {
	it('runs a production delivery whose delivery_id a homolog delivery already used (Environment: Both)', async () => {
		const workflowId = randomUUID();
		const parameters = { environment: 'both' };
		const homolog = statusUpdate({ environment: 'homolog', delivery_id: 5 });
		const first = await deliver(delivery(homolog), { parameters, workflowId });
		expect(first.items).toHaveLength(1);

		const production = await deliver(delivery({ ...homolog, environment: 'production' }), {
			parameters,
			workflowId,
			staticData: first.staticData,
		});
		expect(production.status).toBe(200);
		expect(production.items.map((item) => item.json.environment)).toEqual(['production']);

		// The same delivery again, from either environment, is still a duplicate.
		for (const environment of ['homolog', 'production']) {
			const again = await deliver(delivery({ ...homolog, environment }), { parameters, workflowId, staticData: production.staticData });
			expect(again.run, environment).toBeUndefined();
			expect(again.response.body).toMatchObject({ message: expect.stringMatching(/already processed/) });
		}
	});
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

describe('duplicates: delivery_id is read as written', () => {
	it('keeps ids above 2^53 apart, and gives them to the workflow digit for digit', async () => {
		const workflowId = randomUUID();
		const text = (id: string) =>
			`{"event":"order.status_updated","environment":"production","timestamp":"${serviceTime()}","webhook_id":12,"delivery_id":${id},"data":{"id":"1","type":"letter","status":{"old":0,"new":1}}}`;
		// 2^53 + 1 and 2^53: JSON.parse reads both as 9007199254740992.
		expect(JSON.parse(text('9007199254740993')).delivery_id).toBe(JSON.parse(text('9007199254740992')).delivery_id);
		const first = await deliver(rawDelivery(text('9007199254740993')), { workflowId });
		expect(first.items.map((item) => item.json.delivery_id)).toEqual(['9007199254740993']);
		const second = await deliver(rawDelivery(text('9007199254740992')), { workflowId, staticData: first.staticData });
		expect(second.items.map((item) => item.json.delivery_id)).toEqual(['9007199254740992']);
		const again = await deliver(rawDelivery(text('9007199254740993')), { workflowId, staticData: second.staticData });
		expect(again.run).toBeUndefined();
	});

	it('takes the top-level delivery_id, not one inside data, whatever the order of the members', async () => {
		const workflowId = randomUUID();
		const one = `{"data":{"delivery_id":1,"note":"a \\"quoted\\" } brace"},"delivery_id":900000000000000001,"event":"webhook.test","environment":"production"}`;
		const two = `{"data":{"delivery_id":1,"note":"a \\"quoted\\" } brace"},"delivery_id":900000000000000002,"event":"webhook.test","environment":"production"}`;
		const first = await deliver(rawDelivery(one), { workflowId });
		expect(first.items.map((item) => item.json.delivery_id)).toEqual(['900000000000000001']);
		const second = await deliver(rawDelivery(two), { workflowId, staticData: first.staticData });
		expect(second.items).toHaveLength(1);
	});

	it('keeps small ids as the numbers they are', async () => {
		const body = statusUpdate();
		const outcome = await deliver(delivery(body));
		expect(outcome.items[0].json.delivery_id).toBe(body.delivery_id);
		expect(typeof outcome.items[0].json.delivery_id).toBe('number');
	});
});

const stored = (staticData: IDataObject) =>
	((staticData[`node:${TRIGGER_NAME}`] as IDataObject | undefined)?.acceptedDeliveries ?? []) as string[];

describe('duplicates: one run per delivery in one n8n process', () => {
	it('starts one execution for a delivery_id however often it arrives', async () => {
		const body = statusUpdate();
		const first = await deliver(delivery(body));
		expect(first.items).toHaveLength(1);

		// A retry is a new attempt: new X-Webhook-Timestamp, same body and delivery_id.
		const second = await deliver(delivery(body), { staticData: first.staticData });
		expect(second.status).toBe(200);
		expect(second.webhookResponse).toEqual({ noWebhookResponse: true });
		expect(second.run).toBeUndefined();

		const other = await deliver(delivery(statusUpdate()), { staticData: second.staticData });
		expect(other.items).toHaveLength(1);
	});

	it('keeps the ids when the execution reloads static data as stored, as n8n 2.41 does', async () => {
		// There, what webhook() writes to non-empty static data is lost; what the execution writes
		// is saved. Each call gets the static data the previous execution would have saved.
		const bodies = [statusUpdate(), statusUpdate(), statusUpdate()];
		let staticData: IDataObject | undefined;
		for (const body of bodies) {
			const outcome = await deliver(delivery(body), { staticData, executionStaticData: 'reloaded' });
			expect(outcome.items).toHaveLength(1);
			staticData = outcome.staticData;
		}
		for (const body of bodies) {
			const again = await deliver(delivery(body), { staticData, executionStaticData: 'reloaded' });
			expect(again.status).toBe(200);
			expect(again.run, `delivery ${String(body.delivery_id)}`).toBeUndefined();
		}
	});

	it('lets every copy through when duplicate dropping is off', async () => {
		const parameters = { options: { deduplicate: false } };
		const workflowId = randomUUID();
		const body = statusUpdate();
		const first = await deliver(delivery(body), { parameters, workflowId });
		const second = await deliver(delivery(body), { parameters, workflowId, staticData: first.staticData });
		expect(second.items).toHaveLength(1);
		expect(second.after).toHaveLength(1);
	});

	it('does not remember deliveries it refused', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const refused = await deliver(delivery(body, { secret: 'another-secret' }), { workflowId });
		expect(refused.status).toBe(401);
		const accepted = await deliver(delivery(body), { workflowId, staticData: refused.staticData });
		expect(accepted.items).toHaveLength(1);
	});

	it('lets deliveries without a delivery_id through when nothing else tells them apart, and drops a repeated event', async () => {
		const runs = async (body: IDataObject, parameters: IDataObject = {}) => {
			const workflowId = randomUUID();
			const first = await deliver(delivery(body), { workflowId, parameters });
			const second = await deliver(delivery(body), { workflowId, parameters, staticData: first.staticData });
			return [first.after.length, second.after.length];
		};
		const { delivery_id: _none, ...body } = statusUpdate();
		const { delivery_id: _neither, ...test } = envelope('webhook.test', { message: 'hi', webhook_id: 1, webhook_name: 'n8n' });
		expect(await runs(test)).toEqual([1, 1]);
		expect(await runs(body, { options: { dropRepeatedEvents: false } })).toEqual([1, 1]);
		expect(await runs(body)).toEqual([1, 0]);
	});

	it('neither drops nor records in test executions ("Listen for test event")', async () => {
		const workflowId = randomUUID();
		const body = statusUpdate();
		const test = await deliver(delivery(body), { workflowId, mode: 'manual' });
		const again = await deliver(delivery(body), { workflowId, mode: 'manual', staticData: test.staticData });
		expect([test.after.length, again.after.length]).toEqual([1, 1]);
		const production = await deliver(delivery(body), { workflowId, staticData: again.staticData });
		expect(production.after).toHaveLength(1);
	});

	it('remembers a bounded number of deliveries in static data, forgetting the oldest first', async () => {
		const first = statusUpdate();
		let staticData = (await deliver(delivery(first))).staticData;
		const firstKey = `production:${String(first.delivery_id)}`;
		// Its delivery_id, and its event (hashed).
		expect(stored(staticData)).toEqual([firstKey, expect.stringMatching(/^e:[\w-]{22}$/)]);
		// Fill the window as that many accepted deliveries would have.
		const node = staticData[`node:${TRIGGER_NAME}`] as IDataObject;
		node.acceptedDeliveries = [firstKey, ...Array.from({ length: DEDUP_WINDOW - 1 }, (_, i) => `production:filler-${i}`)];
		const last = statusUpdate();
		staticData = (await deliver(delivery(last), { staticData })).staticData;
		expect(stored(staticData)).toHaveLength(DEDUP_WINDOW);
		expect(stored(staticData)).not.toContain(firstKey);
		expect(stored(staticData).at(-2)).toBe(`production:${String(last.delivery_id)}`);
		expect((await deliver(delivery(first), { staticData })).items).toHaveLength(1);
	});
});
