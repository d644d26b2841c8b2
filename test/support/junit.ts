/**
 * A JUnit XML report read back with a real XML parser (xml2js over sax, strict: a document that
 * is not well-formed is refused), then checked against the shape CI test reporters read.
 */
import { parseStringPromise } from 'xml2js';
import { z } from 'zod';

const TextSchema = z.object({ _: z.string().optional() }).passthrough();
const Attrs = <T extends z.ZodRawShape>(shape: T) => z.object({ $: z.object(shape) });

const FaultSchema = TextSchema.and(Attrs({ message: z.string(), type: z.string() }));

const TestCaseSchema = Attrs({
  name: z.string(),
  classname: z.string(),
  file: z.string(),
  line: z.string().regex(/^\d+$/),
  time: z.string().regex(/^\d+\.\d{3}$/),
}).extend({
  failure: z.array(FaultSchema).max(1).optional(),
  error: z.array(FaultSchema).max(1).optional(),
  skipped: z
    .array(TextSchema.and(Attrs({ message: z.string() })))
    .max(1)
    .optional(),
  'system-out': z.array(TextSchema).max(1).optional(),
});

const Counts = {
  tests: z.string().regex(/^\d+$/),
  failures: z.string().regex(/^\d+$/),
  errors: z.string().regex(/^\d+$/),
  skipped: z.string().regex(/^\d+$/),
  time: z.string(),
  timestamp: z.string(),
};

const TestSuiteSchema = Attrs({ name: z.string(), file: z.string(), ...Counts }).extend({
  properties: z.array(z.object({ property: z.array(Attrs({ name: z.string(), value: z.string() })) })).length(1),
  testcase: z.array(TestCaseSchema).optional(),
});

const JUnitSchema = z.object({
  testsuites: Attrs({ name: z.string(), ...Counts }).extend({ testsuite: z.array(TestSuiteSchema).optional() }),
});

interface JUnitCase {
  readonly name: string;
  readonly classname: string;
  readonly file: string;
  readonly line: number;
  readonly time: number;
  readonly failure?: { readonly message: string; readonly type: string; readonly text: string };
  readonly error?: { readonly message: string; readonly type: string; readonly text: string };
  readonly skipped?: { readonly message: string };
  readonly systemOut?: string;
}

interface JUnitSuite {
  readonly name: string;
  readonly tests: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
  readonly properties: Readonly<Record<string, string>>;
  readonly cases: readonly JUnitCase[];
}

export interface JUnit {
  readonly tests: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
  readonly suites: readonly JUnitSuite[];
}

type Fault = z.infer<typeof FaultSchema>;
const fault = (f: Fault | undefined) => f && { message: f.$.message, type: f.$.type, text: f._ ?? '' };

/** Parses `xml` (throws when it is not well-formed XML or not the JUnit shape). */
export async function parseJUnit(xml: string): Promise<JUnit> {
  const raw = JUnitSchema.parse(await parseStringPromise(xml, { strict: true, explicitCharkey: true }));
  const root = raw.testsuites;
  return {
    tests: Number(root.$.tests),
    failures: Number(root.$.failures),
    errors: Number(root.$.errors),
    skipped: Number(root.$.skipped),
    suites: (root.testsuite ?? []).map((s) => ({
      name: s.$.name,
      tests: Number(s.$.tests),
      failures: Number(s.$.failures),
      errors: Number(s.$.errors),
      skipped: Number(s.$.skipped),
      properties: Object.fromEntries(s.properties[0]!.property.map((p) => [p.$.name, p.$.value])),
      cases: (s.testcase ?? []).map((c) => ({
        name: c.$.name,
        classname: c.$.classname,
        file: c.$.file,
        line: Number(c.$.line),
        time: Number(c.$.time),
        failure: fault(c.failure?.[0]),
        error: fault(c.error?.[0]),
        skipped: c.skipped?.[0] && { message: c.skipped[0].$.message },
        systemOut: c['system-out']?.[0]?._,
      })),
    })),
  };
}
