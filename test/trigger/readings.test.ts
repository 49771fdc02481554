/**
 * Where the service's interface is silent, the trigger holds under every reasonable reading:
 * X-Webhook-Timestamp in São Paulo time or in UTC, the environment from the signed body. And the
 * items say what the service's codes mean.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { deliver, delivery, envelope, serviceTime, statusUpdate } from './support';

// Maximum Age under both readings of the header, in one table: too old, too far ahead, missing or unreadable is 401.
describe('readings: the time zone of X-Webhook-Timestamp, and Maximum Age under both', () => {
	// Each header written when its case runs, `offsetSeconds` from then.
	const saoPaulo = (offsetSeconds: number) => () => serviceTime(offsetSeconds);
	const utc = (offsetSeconds: number) => () => new Date(Date.now() + offsetSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
	const maxAge = { options: { maxAgeSeconds: 300 } };
	/** [the case, the header (none: left out), the trigger's parameters, the answer, the zone the item says it read]. */
	const CASES: Array<[string, (() => string) | undefined, object, number, string?]> = [
		['São Paulo time within the window', saoPaulo(-200), maxAge, 200, 'America/Sao_Paulo'],
		['UTC within the window', utc(-100), maxAge, 200, 'UTC'],
		['São Paulo time too old', saoPaulo(-600), maxAge, 401],
		['UTC too old', utc(-600), maxAge, 401],
		['São Paulo time too far ahead', saoPaulo(600), maxAge, 401],
		['UTC too far ahead', utc(600), maxAge, 401],
		['no header', undefined, maxAge, 401],
		['ISO 8601', () => new Date().toISOString(), maxAge, 401],
		['a day old, Maximum Age off', saoPaulo(-86_400), {}, 200],
	];
	it.each(CASES)('%s', async (_case, header, parameters, status, zone) => {
		const request = delivery(statusUpdate());
		if (header === undefined) delete request.headers['x-webhook-timestamp'];
		else request.headers['x-webhook-timestamp'] = header();
		const outcome = await deliver(request, { parameters: parameters as IDataObject });
		expect(outcome.status).toBe(status);
		expect(outcome.items).toHaveLength(status === 200 ? 1 : 0);
		if (zone) expect(outcome.items[0].json.timestampHeaderZone).toBe(zone);
	});
});

describe('readings: status texts next to the codes', () => {
	// A letter's, in order.created and order.status_updated: the events of docs/trigger.md, made from a run (test/docs/outputs.test.ts).
	it('adds what a status means next to the service’s own codes, for registered e-mail and a code it does not know', async () => {
		const status = (type: string, old: number, now: number) => envelope('order.status_updated', { id: '5000000', type, status: { old, new: now }, updated_at: serviceTime() });
		const [email, unknownCode] = [status('email', 1, 3), status('letter', 6, 9)];
		const data = async (body: IDataObject) => (await deliver(delivery(body))).items[0].json.data as IDataObject;
		expect(await data(email)).toMatchObject({ status: { old: 1, new: 3 }, statusText: { old: 'Paid, awaiting send', new: 'Sent' } });
		expect(await data(unknownCode)).toMatchObject({ status: { old: 6, new: 9 }, statusText: { old: 'Returned' } });
	});
});

// The environment read from the signed body only, whatever X-Webhook-Environment says, is the duplicate
// fuzz's family of bodies and headers (test/reliability/duplicates.suite.ts).

describe('readings: the environment of the signed body', () => {
	// [the body's environment, the trigger's Environment, taken by the active workflow]
	it.each([
		['homolog', 'production', false],
		['production', 'homolog', false],
		['homolog', 'homolog', true],
		['homolog', 'both', true],
		['production', 'both', true],
	])('from %s to a trigger on %s: taken %s, always answered 200, always shown in a test execution', async (from, wanted, taken) => {
		const body = statusUpdate({ environment: from });
		const parameters = { environment: wanted };
		const active = await deliver(delivery(body), { parameters });
		expect(active.status).toBe(200);
		expect(active.items).toHaveLength(taken ? 1 : 0);
		if (!taken) expect(active.run).toBeUndefined();
		// The editor listening for a test event still shows it, saying why the active workflow drops it.
		const test = await deliver(delivery(body), { parameters, mode: 'manual' });
		expect(test.items).toHaveLength(1);
		const why = new RegExp(`environment ${from} .*Environment: ${wanted}.*active workflow answers 200 and drops it`);
		expect(test.items[0].json.notTakenWhenActive).toEqual(taken ? undefined : expect.stringMatching(why));
	});
});
