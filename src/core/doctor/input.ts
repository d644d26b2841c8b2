/** Reads what a program sent from the user's text: a cURL command, a raw HTTP request, a URL and a body, or a log line holding one. */
import { err, type Result } from '../result';
import type { SentRequest } from './types';

/** The request in `text`, or one line saying why it cannot be read and what to paste instead. */
export function readSentRequest(text: string): Result<SentRequest, string> {
  void text;
  return err('not written yet');
}
