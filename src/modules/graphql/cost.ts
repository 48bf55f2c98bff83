import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql';

const DEFAULT_LIST = 20;

function intArg(node: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!node) return undefined;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const v = variables[node.name.value];
    return typeof v === 'number' ? v : undefined;
  }
  return undefined;
}

/**
 * A simple cost model: every field costs 1, and whatever sits under a field taking `limit` costs
 * `limit` times over (20 when unset). Depth is limited separately (mercurius `queryDepth`).
 * Runs before execution, when variables are known (so the parsed-query cache stays on).
 */
export function queryCost(document: DocumentNode, variables: Record<string, unknown> = {}): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const cost = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
    if (!set) return 0;
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const limitArg = sel.arguments?.find((a) => a.name.value === 'limit');
        const isList = !!limitArg || !!sel.selectionSet?.selections.some((s) => s.kind === Kind.FIELD && s.name.value === 'nodes');
        const multiplier = isList ? Math.max(1, intArg(limitArg?.value, variables) ?? DEFAULT_LIST) : 1;
        total += 1 + multiplier * cost(sel.selectionSet, seen);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        total += cost(sel.selectionSet, seen);
      } else if (!seen.has(sel.name.value)) {
        total += cost(fragments.get(sel.name.value)?.selectionSet, new Set([...seen, sel.name.value]));
      }
    }
    return total;
  };
  let max = 0;
  for (const def of document.definitions) if (def.kind === Kind.OPERATION_DEFINITION) max = Math.max(max, cost(def.selectionSet, new Set()));
  return max;
}
