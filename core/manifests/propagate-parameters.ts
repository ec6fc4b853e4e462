import { defaultTypeFor } from './default-types.ts';
import { copyJson, isObject, isTruthy, type JsonObject, setField } from './json-values.ts';

export const PARAMETERS_KEY = '$parameters';

/**
 * Fills in default component types and propagates `$parameters` as Airbyte's CDK does
 * (ManifestComponentTransformer.propagate_types_and_parameters), on a manifest whose references are resolved:
 *
 * - a mapping without `type` gets the default type of the field holding it (`SimpleRetriever.requester` →
 *   HttpRequester; see DEFAULT_COMPONENT_TYPES), a Custom… type when it has a `class_name`;
 * - the parameters in force are the parent's with the mapping's own `$parameters` over them (its own win);
 * - a JSON schema object (`type: object` or `[null, object]`) is left as it is;
 * - a mapping still without type is a plain value: only its direct children that have a `type` are processed;
 * - a component gets every parameter in force as a field where that field is absent or falsy (so
 *   `$parameters: {name, path, primary_key}` on a stream fills the stream's `name`, the requester's `path`…);
 *   then its object and list fields are processed, minus the parameter named like the field descended into;
 *   the parameters in force stay on the component as `$parameters` (`parameters` in its templates).
 *
 * Returns a new tree; the input is not changed.
 */
export function propagateTypesAndParameters(manifest: JsonObject): JsonObject {
  return propagate('', manifest, {});
}

function propagate(fieldId: string, node: JsonObject, parentParameters: JsonObject): JsonObject {
  const component: JsonObject = { ...node };
  if (!Object.hasOwn(component, 'type')) {
    const found = defaultTypeFor(fieldId, Object.hasOwn(component, 'class_name'));
    if (found !== undefined) component.type = found;
  }
  const own = component[PARAMETERS_KEY];
  delete component[PARAMETERS_KEY];
  const parameters: JsonObject = { ...copyJson(parentParameters), ...(isObject(own) ? own : {}) };

  if (isJsonSchemaObject(component)) return component;
  if (!Object.hasOwn(component, 'type')) {
    for (const [field, value] of Object.entries(component)) {
      if (isObject(value) && isTruthy(value.type)) setField(component, field, propagate(fieldId, value, parameters));
    }
    return component;
  }

  // A field given on the component wins over a parameter of the same name, unless it is falsy.
  for (const [key, value] of Object.entries(parameters)) {
    if (!isTruthy(component[key])) setField(component, key, copyJson(value));
  }
  const type = String(component.type);
  for (const [field, value] of Object.entries(component)) {
    if (!isObject(value) && !Array.isArray(value)) continue;
    // A parameter named like the field is not passed into it (the CDK's guard against a value containing itself).
    const excluded = Object.hasOwn(parameters, field) ? parameters[field] : undefined;
    delete parameters[field];
    const childId = `${type}.${field}`;
    const processed = isObject(value)
      ? propagate(childId, value, parameters)
      : value.map((item) => (isObject(item) ? propagate(childId, item, parameters) : item));
    setField(component, field, processed);
    if (isTruthy(excluded)) setField(parameters, field, excluded);
  }
  if (Object.keys(parameters).length > 0) component[PARAMETERS_KEY] = parameters;
  return component;
}

function isJsonSchemaObject(node: JsonObject): boolean {
  const type = node.type;
  return type === 'object' || (Array.isArray(type) && type.length === 2 && type[0] === 'null' && type[1] === 'object');
}
