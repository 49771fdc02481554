import { CREATE_FIELD_NAMES } from './order/create.description';

const ORDER_ID = { orderId: 'Order ID' };
const EMAIL_ID = { orderId: 'Registered E-Mail ID' };

/** Per `resource.operation`: the node field behind each wire name its errors use. */
const FIELD_NAMES: Record<string, Record<string, string>> = {
	'order.create': CREATE_FIELD_NAMES,
	'order.getPrice': CREATE_FIELD_NAMES,
	'order.get': ORDER_ID,
	'order.cancel': ORDER_ID,
	'order.downloadFile': ORDER_ID,
	'registeredEmail.get': EMAIL_ID,
	'registeredEmail.cancel': EMAIL_ID,
	'registeredEmail.downloadFile': EMAIL_ID,
	'chatMessage.send': {
		sender_id: 'Sender',
		template_id: 'Template',
		phone: 'Recipient Phone',
		variables: 'Template Variables',
		paymentMethod: 'Payment Method',
		team_member_id: 'Team Member ID',
	},
};

export function fieldNamesOf(resource: unknown, operation: unknown): Record<string, string> {
	return FIELD_NAMES[`${String(resource)}.${String(operation)}`] ?? {};
}
