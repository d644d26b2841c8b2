// ESLint over the whole tree: typescript-eslint's type-checked recommended rules for TypeScript,
// ESLint's recommended rules for the JavaScript scripts and tests. Formatting is Prettier's job.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'test-results/', '.vscode-test/', 'src/core/ws/proto/*_pb.ts'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // The extension loads its lazy bundles and Node's costly modules on first use, synchronously:
      // require() on purpose (src/core/node-lazy.ts, re2js in src/core/format/pattern.ts, the TLS
      // sandbox's certificates in src/sandbox/index.ts).
      '@typescript-eslint/no-require-imports': [
        'error',
        {
          allow: [
            '^\\./(language|lazy|tools|ws)\\.js$',
            '^node:crypto$',
            '^node:worker_threads$',
            '^re2js$',
            '^\\./certificates$',
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'commonjs', globals: { ...globals.node, ...globals.mocha } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
  },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
  // The command line loads each command (and parts only some runs need) on use: esbuild.js gives each
  // relative require() of src/cli/ a bundle of its own.
  {
    files: ['src/cli/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': ['error', { allow: ['^\\.\\.?/'] }] },
  },
  // Rooms one can hold in mind: no function of the product longer than a screen (ARCHITECTURE.md).
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  // Code that Playwright runs inside the page (page.evaluate callbacks) sees the browser's globals.
  { files: ['test/webview/**/*.js', 'test/ui/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
);
