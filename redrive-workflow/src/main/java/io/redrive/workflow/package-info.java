/**
 * Durable workflows: for now the runtime's defaults; the Java API ({@code WorkflowClient},
 * orchestration and activity registration) and the runtime arrive with the next issues.
 */
package io.redrive.workflow;
