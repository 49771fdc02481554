import type { INodeType } from 'n8n-workflow';

export function testNodes(): Array<[string, INodeType]>;
export function toolVariant(node: INodeType): INodeType;
