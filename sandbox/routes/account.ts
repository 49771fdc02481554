import { ASSUMED } from '../../nodes/PostalService/contract/assumptions';
import type { SandboxCore } from '../core';
import { envelopeA, envelopeC, envelopeLogo, text, type Ctx, type Reply } from '../http';
import type { Favorite } from '../state';

export async function getBalance(core: SandboxCore): Promise<Reply> {
	return envelopeA(200, 'Sucesso', {
		[core.names.balanceFields.balance]: core.state.balance,
		currency: 'BRL',
	});
}

export async function getLogo(core: SandboxCore): Promise<Reply> {
	return envelopeLogo(200, 'Logo encontrado', { logo_url: `${core.baseUrl}/_sandbox/logo.svg` });
}

const INTEGER_FIELDS = new Set(['list_letter', 'list_email', 'list_whatsapp']);

/** PUT /api/v2/favorites: partial update; omitted keeps, null or "" clears, `name` cannot be emptied. */
export async function updateFavorite(core: SandboxCore, ctx: Ctx): Promise<Reply> {
	if (ctx.bodyKind !== 'json' && ctx.bodyKind !== 'form') {
		return envelopeC(400, false, 'Envie application/json ou application/x-www-form-urlencoded');
	}
	const body = ctx.fields;
	const idText = text(body.id);
	if (idText === undefined || idText === '') return envelopeC(400, false, 'Campo obrigatório não preenchido: id');
	if (!/^\d+$/.test(idText)) return envelopeC(400, false, 'id: deve ser um número inteiro');
	const favorite = core.state.favorites.find((f) => f.id === Number(idText));
	if (!favorite) return envelopeC(404, false, `Favorito ${idText} não encontrado`);

	const changes: Partial<Record<keyof Favorite, string | number>> = {};
	if ('name' in body) {
		const name = text(body.name);
		if (name === undefined || name.trim() === '') return envelopeC(400, false, 'O campo name não pode ficar vazio');
		changes.name = name;
	}
	for (const [index, key] of ASSUMED.favoriteFields.entries()) {
		const wire = core.names.favoriteFields[index];
		if (!(wire in body)) continue;
		const value = body[wire];
		if (value === null || value === '') {
			changes[key] = INTEGER_FIELDS.has(key) ? 0 : '';
			continue;
		}
		const asText = text(value);
		if (asText === undefined) return envelopeC(400, false, `${key}: valor inválido`);
		if (INTEGER_FIELDS.has(key)) {
			// The interface types the list flags as integers: a JSON true or "true" is refused, not read as 1.
			if (typeof value === 'boolean' || !/^[01]$/.test(asText)) return envelopeC(400, false, `${key}: use 0 ou 1`);
			changes[key] = asText === '1' ? 1 : 0;
		} else {
			changes[key] = asText;
		}
	}
	Object.assign(favorite, changes);
	core.save();
	return envelopeC(200, true, 'Favorito atualizado com sucesso', { ...favorite });
}
