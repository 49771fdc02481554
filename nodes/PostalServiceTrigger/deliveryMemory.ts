import type { IDataObject } from 'n8n-workflow';

/** How many delivery ids the node remembers per workflow; the oldest are forgotten first. */
export const DEDUP_WINDOW = 2000;

/**
 * Delivery ids accepted by this n8n process, per workflow and node.
 *
 * The durable memory is the node's static data, but n8n 2.41 does not keep what webhook() writes
 * there once the static data holds anything: the execution a delivery starts rebuilds the workflow
 * over the same object, which clears its change flag before n8n's save after the webhook. The node
 * therefore also writes the list during that execution (see `mergeAccepted`), where n8n does save
 * it at the end; and this process-wide list closes the gap until then, including two copies of one
 * delivery arriving at the same moment.
 */
const acceptedInProcess = new Map<string, string[]>();

export function memoryKey(workflowId: string | undefined, nodeName: string): string {
	return `${workflowId ?? ''}\u0000${nodeName}`;
}

function storedIds(staticData: IDataObject): string[] {
	return Array.isArray(staticData.deliveryIds) ? (staticData.deliveryIds as string[]) : [];
}

export function alreadyAccepted(key: string, staticData: IDataObject, deliveryId: string): boolean {
	return storedIds(staticData).includes(deliveryId) || (acceptedInProcess.get(key) ?? []).includes(deliveryId);
}

/** Takes the delivery in this process at once (before any await), so a concurrent copy is dropped. */
export function claim(key: string, deliveryId: string): void {
	acceptedInProcess.set(key, [...(acceptedInProcess.get(key) ?? []), deliveryId].slice(-DEDUP_WINDOW));
}

/** Gives a claim back when the delivery could not be turned into an item, so its retry is taken. */
export function release(key: string, deliveryId: string): void {
	acceptedInProcess.set(
		key,
		(acceptedInProcess.get(key) ?? []).filter((id) => id !== deliveryId),
	);
}

/**
 * Writes into static data every id known to be accepted: what it holds, what this process accepted
 * and the given ones, in order of acceptance. Always a new array, so n8n sees a change and saves it.
 */
export function mergeAccepted(key: string, staticData: IDataObject, deliveryIds: string[]): void {
	const merged: string[] = [];
	const seen = new Set<string>();
	for (const id of [...storedIds(staticData), ...(acceptedInProcess.get(key) ?? []), ...deliveryIds]) {
		if (seen.has(id)) continue;
		seen.add(id);
		merged.push(id);
	}
	staticData.deliveryIds = merged.slice(-DEDUP_WINDOW);
}
