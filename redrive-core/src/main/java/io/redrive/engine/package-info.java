/** The delivery rules shared by every store: lease verdicts, retry or dead, dead-letter routing. */
package io.redrive.engine;
