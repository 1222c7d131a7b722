package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;

/** What a segment's header says the decisions in it depended on. */
public record JournalHeader(int shards, PacingPolicy policy)
{
}
