import type { CompiledAction, CompiledConnector } from '../../core/plugins/compiled-connector.ts';

export type KitAction = CompiledAction & { requiredParams: string[] };

/** Every action of a loaded connector, with the params its schema requires. */
export function kitActions(connector: CompiledConnector): KitAction[] {
  return connector.entities().flatMap((entity) =>
    connector.actionsOf(entity).map((name) => {
      const action = connector.resolve(entity, name);
      const required = action.definition.params.required;
      return { ...action, requiredParams: Array.isArray(required) ? required.filter((param): param is string => typeof param === 'string') : [] };
    }),
  );
}

/** The params each run uses: the caller's `calls` for the action, else its params schema's examples, else `{}`. */
export function runnableCalls(action: Pick<CompiledAction, 'definition'>, given: Array<Record<string, unknown>> | undefined): Array<Record<string, unknown>> {
  if (given?.length) return given;
  const examples = action.definition.params.examples;
  if (Array.isArray(examples) && examples.length > 0) return examples as Array<Record<string, unknown>>;
  return [{}];
}

/** For each required param: the first example without it. */
export function missingParamCases(action: KitAction): Array<{ missing: string; params: Record<string, unknown> }> {
  const [example] = runnableCalls(action, undefined);
  return action.requiredParams.map((missing) => {
    const { [missing]: _left, ...params } = example ?? {};
    return { missing, params };
  });
}
