// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.stack/', '.data/', 'coverage/', '.bench-build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // kafkajs' classes come from src/kafka/kafkajs.ts, which puts our produce step into kafkajs before
    // kafkajs loads (src/kafka/send-messages.ts); types may come from kafkajs itself.
    files: ['src/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/kafka/kafkajs.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kafkajs',
              message: 'import kafkajs from src/kafka/kafkajs.ts (it installs our produce step first)',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    files: ['bin/**/*.js', 'scripts/**/*.js', 'scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
