/**
 * What one run of the node keeps: n8n makes an execute context for each run and drops it after,
 * so state keyed on the context lives exactly as long as the run.
 */
export function stateOfRun<Context extends object, State>(states: WeakMap<Context, State>, ctx: Context, create: () => State): State {
	let state = states.get(ctx);
	if (state === undefined) {
		state = create();
		states.set(ctx, state);
	}
	return state;
}
