import { randomUUID } from 'node:crypto';

import type { IHookFunctions, INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { PostalServiceTrigger } from '../../nodes/PostalServiceTrigger/PostalServiceTrigger.node';
import { deliver, delivery, statusUpdate, triggerWorkflow } from './support';

const trigger = new PostalServiceTrigger();
/** What n8n hands checkExists when it activates a workflow or listens for a test event. */
const activation = (settings: Partial<INode>) =>
	trigger.webhookMethods.default.checkExists.call({ getNode: () => triggerWorkflow({}, settings).nodes[0] } as unknown as IHookFunctions);

describe('node settings that would run the workflow for a delivery the trigger stops', () => {
	// "On Error: Continue" is as real: when webhook() throws (a receipt that cannot be stored, answered
	// 500 and retried), n8n 2.41 still records an execution that fails at the trigger, and the
	// setting hands the next node an empty item there.
	it('are real: with "Always Output Data" n8n runs the next node for a delivery the trigger drops', async () => {
		const workflowId = randomUUID();
		const settings = { alwaysOutputData: true };
		const body = statusUpdate();
		await deliver(delivery(body), { workflowId });
		const resend = await deliver(delivery(body), { workflowId, settings });
		expect(resend.after).toHaveLength(1);
	});

	// [the settings, the setting the refusal names; none: activates]
	it.each<[Partial<INode>, RegExp | undefined]>([
		[{ alwaysOutputData: true }, /"Always Output Data"/],
		[{ onError: 'continueRegularOutput' }, /"On Error: Continue"/],
		[{ onError: 'continueErrorOutput' }, /"On Error: Continue"/],
		[{ continueOnFail: true }, /"On Error: Continue"/],
		[{}, undefined],
		[{ onError: 'stopWorkflow' }, undefined],
	])('activation with %o: refused naming the setting to turn off, or allowed with n8n\'s defaults', async (settings, named) => {
		if (named === undefined) return await expect(activation(settings)).resolves.toBe(true);
		await expect(activation(settings)).rejects.toThrow(named);
		await expect(activation(settings)).rejects.toThrow(/Turn (it|them) off in the trigger's settings/);
	});
});
