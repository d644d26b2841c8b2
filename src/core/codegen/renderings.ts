/**
 * What every language writes by kind (the pieces of a value, the body, the program's functions):
 * one walk here over each set of kinds, driven by a table each language fills with an entry a
 * kind. A new kind is one entry in each language's table, and TypeScript refuses a table that
 * lacks it.
 */
import type { Plan } from './plan';
import type { Piece, Value } from './program-model';

/** The pieces a program makes itself when it runs; the others are text and the program's parameters. */
type RunTimePiece = Exclude<Piece['kind'], 'text' | 'parameter'>;

/** How a language makes a run-time piece, once per run, and names it where a value holds it. */
interface RunTimeRendering {
  /** The variable that holds it: what a value's piece becomes. */
  readonly variable: string;
  /** The statement that makes it, indented as the program's main code. */
  readonly make: string;
  /** The function the statement calls, when the language has none built in. */
  readonly helper?: string;
  /** What the program imports for it, in the form the language's imports take. */
  readonly imports: readonly string[];
}

type PieceRendering<K extends Piece['kind']> = K extends RunTimePiece
  ? RunTimeRendering
  : (piece: Extract<Piece, { kind: K }>, inHeader: boolean) => string;

/** One language's values: an entry per kind of piece, and what a value is made of besides. */
export type ValueRenderings = { readonly [K in Piece['kind']]: PieceRendering<K> } & {
  /** The empty value. */
  readonly empty: string;
  /** What goes between the expressions of two pieces. */
  readonly join: string;
  /** The API key the program read from the environment, the value of a signed request's key header. */
  readonly apiKey: string;
};

/**
 * Every language's facts about a run-time piece, in the order a program makes them: whether the
 * plan needs it, and whether a program that asks makes it after the answer (the timestamp: a slow
 * answer must not age it).
 */
const RUN_TIME: { readonly [K in RunTimePiece]: { readonly used: (plan: Plan) => boolean; readonly late: boolean } } = {
  timestamp: { used: (plan) => plan.usesTimestamp, late: true },
  clientOrderId: { used: (plan) => plan.usesClientOrderId, late: false },
  uuid: { used: (plan) => plan.usesUuid, late: false },
};

/** The run-time pieces the program makes, in order. */
function runTimePieces(plan: Plan): RunTimePiece[] {
  return (Object.keys(RUN_TIME) as RunTimePiece[]).filter((kind) => RUN_TIME[kind].used(plan));
}

function renderPiece(piece: Piece, r: ValueRenderings, inHeader: boolean): string {
  if (piece.kind === 'text') return r.text(piece, inHeader);
  if (piece.kind === 'parameter') return r.parameter(piece, inHeader);
  return r[piece.kind].variable;
}

/** A value as an expression of the language; `inHeader`: a header's value, which HTTP carries as Latin-1. */
export function renderValue(value: Value | 'apiKey', r: ValueRenderings, inHeader = false): string {
  if (value === 'apiKey') return r.apiKey;
  if (value.length === 0) return r.empty;
  return value.map((piece) => renderPiece(piece, r, inHeader)).join(r.join);
}

/**
 * The statements that make the run-time pieces the program uses, in order: those made before it
 * asks (all of them in a program that does not ask), or those made after the answer.
 */
export function makePieces(plan: Plan, r: ValueRenderings, moment: 'beforeAsking' | 'afterAnswer'): string[] {
  const asks = plan.request.confirm !== undefined;
  return runTimePieces(plan)
    .filter((kind) => (asks && RUN_TIME[kind].late) === (moment === 'afterAnswer'))
    .map((kind) => r[kind].make);
}

/** The functions the program's run-time pieces call, in order. */
export function pieceHelpers(plan: Plan, r: ValueRenderings): string[] {
  return runTimePieces(plan).flatMap((kind) => r[kind].helper ?? []);
}

/** What the program imports for its run-time pieces, each once, in order. */
export function pieceImports(plan: Plan, r: ValueRenderings): string[] {
  return [...new Set(runTimePieces(plan).flatMap((kind) => r[kind].imports))];
}

/** The statements that set the program's `body`, by the plan's kind of body: `json` is given the JSON body as an expression. */
export type BodyStatements = {
  readonly [K in Plan['body']]: K extends 'json' ? (value: string) => string[] : readonly string[];
};

export function bodyStatements(plan: Plan, b: BodyStatements, r: ValueRenderings): readonly string[] {
  return plan.body === 'json' ? b.json(renderValue(plan.request.json ?? [], r)) : b[plan.body];
}

/** What every program defines, by language, in the order the program defines it. */
export interface ProgramFunctions {
  /** Percent-encoding, the base URL, showing the answer, failing. */
  readonly helpers: string;
  /** Reading the program's parameters, when it has any. */
  readonly arguments: string;
  /** Reading the keys, when the request is signed. */
  readonly keys: string;
  /** Asking before sending, when the request asks. */
  readonly confirm: string;
  /** The one exchange. */
  readonly send: string;
}

/** The program's functions, each when the plan needs it, in order. */
export function programFunctions(plan: Plan, f: ProgramFunctions, r: ValueRenderings): string[] {
  const { parameters, signed, confirm } = plan.request;
  return [
    f.helpers,
    ...(parameters.length > 0 ? [f.arguments] : []),
    ...(signed ? [f.keys] : []),
    ...pieceHelpers(plan, r),
    ...(confirm ? [f.confirm] : []),
    f.send,
  ];
}
