/** The {@code redrive} command line (picocli): for now the {@code demo} command. */
package io.redrive.cli;
