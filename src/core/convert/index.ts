/**
 * Import into `.tradereq` files: cURL commands, Postman collections v2.1 (with an environment)
 * and `.http` / `.rest` files. Pure functions (no file system, no vscode); the shells write the
 * files and show the notes.
 */
export { importCurl, type CurlOptions } from './curl';
export { importPostman } from './postman';
export { importHttpFile, type HttpImportOptions } from './http';
export { ConvertError, IMPORT_LIMITS, type ImportResult, type ImportedFile } from './result';
