package dev.onceonly.relay.api;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One page; pass {@code nextCursor} back as {@code cursor} for the next, until it is null. */
public record PageView<T>(
    List<T> items,
    @Schema(description = "The id to continue after; null on the last page") Long nextCursor) {}
