/**
 * What no send needs, in a bundle of its own (dist/tools.js) loaded when first used: the embedded
 * sandbox exchange, Copy as Code's generators, the importers, the answers' text and their masking
 * for Compare Two Answers, and the signature doctor. The first Send loads dist/lazy.js only.
 */
export { startSandbox } from '../../sandbox';
export { CODE_LANGUAGES, codeRequestFrom, generateCode, isCodeLanguage, programNeeds } from '../../core/codegen';
export { importCurl, importHttpFile, importPostman } from '../../core/convert';
export { answerFileName, answerLabel, answerText } from '../../core/panel/answer-text';
export { maskVolatile } from '../../core/testing/mask';
export { readSentRequest } from '../../core/doctor/input';
export { diagnose } from '../../core/doctor/diagnose';
export { reportText } from '../../core/doctor/report';
