/**
 * The {@code redrive} command line (picocli): the {@code demo}, the server ({@code server}) and the
 * operator commands that talk to it (packages {@code command}, {@code client}, {@code output}).
 */
package io.redrive.cli;
