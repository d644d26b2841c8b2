// xml2js ships no types. Only what the tests use: a strict (sax) parse of an XML document.
declare module 'xml2js' {
  export interface ParserOptions {
    readonly strict?: boolean;
    readonly explicitCharkey?: boolean;
    readonly explicitArray?: boolean;
  }
  export function parseStringPromise(xml: string, options?: ParserOptions): Promise<unknown>;
}
