package io.redrive.store;

import io.redrive.deadletter.DeadGroupQuery;

/** Input of {@link Store#groupDead}: the validated query. */
public record GroupDeadParams(DeadGroupQuery query) {}
