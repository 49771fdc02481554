/** The node's resources in the editor's order (most used first), each with its operations: the panel's lists and parameters are built from here. */
import type { INodeProperties } from 'n8n-workflow';

import { byName } from '../contract/lists';
import * as account from './account';
import * as chatMessage from './chatMessage';
import * as chatSender from './chatSender';
import * as chatTemplate from './chatTemplate';
import * as order from './order';
import * as receipt from './receipt';
import * as registeredEmail from './registeredEmail';
import * as savedContact from './savedContact';
import type { OperationModule } from './types';

interface Resource {
	name: string;
	defaultOperation: string;
	operations: Record<string, OperationModule>;
}

export const RESOURCES: Record<string, Resource> = {
	order: { name: 'Letter', operations: order, defaultOperation: 'create' },
	registeredEmail: { name: 'Registered E-Mail', operations: registeredEmail, defaultOperation: 'get' },
	chatMessage: { name: 'Chat Message', operations: chatMessage, defaultOperation: 'send' },
	account: { name: 'Account', operations: account, defaultOperation: 'getBalance' },
	receipt: { name: 'Order Receipt', operations: receipt, defaultOperation: 'get' },
	chatTemplate: { name: 'Chat Template', operations: chatTemplate, defaultOperation: 'getMany' },
	chatSender: { name: 'Chat Sender', operations: chatSender, defaultOperation: 'getMany' },
	savedContact: { name: 'Saved Contact', operations: savedContact, defaultOperation: 'update' },
};

/** The module of an operation, or undefined for a name the node does not have. */
export function findOperation(resource: string, operation: string): OperationModule | undefined {
	// Own names only: "constructor" or "toString" must not reach an object's prototype.
	const entry = Object.hasOwn(RESOURCES, resource) ? RESOURCES[resource] : undefined;
	return entry && Object.hasOwn(entry.operations, operation) ? entry.operations[operation] : undefined;
}

function operationProperties(forTool: boolean): INodeProperties[] {
	return Object.entries(RESOURCES).flatMap(([value, { defaultOperation, operations }]): INodeProperties[] => [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [value] } },
			// The AI tool is described by its action alone, so the action says what costs credits.
			options: Object.values(operations)
				.map(({ option, spendsCredits }) => (forTool && spendsCredits ? { ...option, action: `${option.action} and spend credits` } : option))
				.sort(byName),
			default: defaultOperation,
		},
		...Object.values(operations).flatMap((operation) => operation.description),
	]);
}

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: Object.entries(RESOURCES).map(([value, { name }]) => ({ name, value })),
	default: 'order',
};

/** The Resource list, each resource's Operation list, and the parameters of every operation. */
export const resourceProperties: INodeProperties[] = [resourceProperty, ...operationProperties(false)];

/** The same for the AI tool n8n makes of the node, whose actions say which operations spend credits. */
export const toolResourceProperties: INodeProperties[] = [resourceProperty, ...operationProperties(true)];
