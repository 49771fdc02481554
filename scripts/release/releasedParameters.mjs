// What a released node version and a released credential promise the workflows saved with them:
// each parameter's name, type, default, option values and display conditions. Once a version is
// released (recorded in RECORD_FILE by `npm run release -- --record-parameters`), a test holds the
// description to it: a change needs a new node version instead (n8n's `version: [1, 2]`).
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const RECORD_FILE = path.join(import.meta.dirname, '..', '..', 'releases', 'parameters.json');

/** The released records, by key (`node postalService v1`, `credential postalServiceApi`). */
export function readRecords(file = RECORD_FILE) {
	try {
		return JSON.parse(readFileSync(file, 'utf8'));
	} catch (error) {
		if (error.code === 'ENOENT') return {};
		throw error;
	}
}

/** Whether a property shows in `version`: only a plain `@version` list under `show` can exclude it. */
function inVersion(property, version) {
	const versions = property.displayOptions?.show?.['@version'];
	return !Array.isArray(versions) || versions.every((v) => typeof v === 'object') || versions.includes(version);
}

/** What a saved workflow depends on in one property, nested options included, in a stable order. */
function promise(property) {
	const kept = {
		name: property.name,
		type: property.type,
		default: property.default,
		displayOptions: property.displayOptions,
		typeOptions: property.typeOptions && { multipleValues: property.typeOptions.multipleValues },
		modes: property.modes?.map((mode) => mode.name),
	};
	if (Array.isArray(property.options)) {
		kept.options = property.options.map((option) =>
			'value' in option ? { value: option.value } : 'values' in option ? { name: option.name, values: option.values.map(promise) } : promise(option),
		);
	}
	return JSON.parse(JSON.stringify(kept));
}

export function parameterRecord(properties, version) {
	return properties.filter((p) => version === undefined || inVersion(p, version)).map(promise);
}

/** The records of the nodes' versions and the credentials, from their descriptions. */
export function recordsOf(nodeTypes, credentialTypes) {
	const records = {};
	for (const { description } of nodeTypes) {
		for (const version of [description.version].flat()) {
			records[`node ${description.name} v${version}`] = parameterRecord(description.properties, version);
		}
	}
	for (const credential of credentialTypes) records[`credential ${credential.name}`] = parameterRecord(credential.properties);
	return records;
}

// n8n allows one name for several properties shown in different places (an "operation" per
// resource): a property is its name and where it shows.
const identity = (p) => `${p.name} ${JSON.stringify(p.displayOptions ?? {})}`;

/** Each way `current` breaks what `released` promised, in words; empty when it keeps it. */
export function brokenPromises(released, current, where = '') {
	const problems = [];
	const now = new Map(current.map((p) => [identity(p), p]));
	const shared = (name) => released.filter((p) => p.name === name).length > 1;
	for (const before of released) {
		const after = now.get(identity(before));
		// Where it shows tells it apart when another property has its name, or when it moved.
		const shown = before.displayOptions && (shared(before.name) || !after);
		const label = `${where}"${before.name}"${shown ? ` (shown with ${JSON.stringify(before.displayOptions)})` : ''}`;
		if (!after) {
			problems.push(`${label} is gone`);
			continue;
		}
		for (const key of ['type', 'default', 'typeOptions', 'modes']) {
			if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) problems.push(`${label}: its ${key} changed`);
		}
		const values = (list) => (list ?? []).filter((o) => 'value' in o).map((o) => JSON.stringify(o.value));
		for (const value of values(before.options)) {
			if (!values(after.options).includes(value)) problems.push(`${label}: option ${value} is gone`);
		}
		const nested = (list) => (list ?? []).filter((o) => !('value' in o));
		for (const inner of nested(before.options)) {
			const match = nested(after.options).find((o) => o.name === inner.name);
			if (!match) problems.push(`${label}: "${inner.name}" is gone`);
			else if (inner.values) problems.push(...brokenPromises(inner.values, match.values ?? [], `${label} > "${inner.name}" > `));
			else problems.push(...brokenPromises([inner], [match], `${label} > `));
		}
	}
	return problems;
}
