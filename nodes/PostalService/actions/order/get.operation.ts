import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as routes from '../shared/orderRoutes';

export const description: INodeProperties[] = routes.getDescription('order');

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	return await routes.get(this, itemIndex, 'order');
}
