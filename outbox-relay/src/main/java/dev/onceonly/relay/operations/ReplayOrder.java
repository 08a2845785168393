package dev.onceonly.relay.operations;

import java.util.List;

/**
 * A validated replay request: which dead rows, at most how many, and whether only to look.
 *
 * @param ids only rows with these ids (those a dry run selected), or null for any row
 */
public record ReplayOrder(OutboxFilter filter, List<Long> ids, int limit, boolean dryRun) {

  public ReplayOrder {
    ids = ids == null ? null : List.copyOf(ids);
  }
}
