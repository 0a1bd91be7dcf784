package io.redrive.server.ui;

import io.redrive.queue.Queue;
import io.redrive.queue.QueueStats;

/**
 * One queue on the overview: the queue and its figures.
 *
 * @param queue the queue
 * @param stats its depth by state and oldest-ready age
 */
public record QueueLine(Queue queue, QueueStats stats) {}
