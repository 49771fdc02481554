// Copies the SVG icons next to the compiled code: n8n resolves `file:` icons relative to the
// node's .js file in dist/, and tsc does not copy non-TypeScript assets.
const { src, dest } = require('gulp');

function buildIcons() {
	return src(['icons/**/*.svg', 'nodes/**/*.svg', 'credentials/**/*.svg'], { base: '.' }).pipe(
		dest('dist'),
	);
}

exports['build:icons'] = buildIcons;
