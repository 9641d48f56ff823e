package io.refstore.core.cli.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.format.FormatTemplate.Atom;
import io.refstore.core.cli.format.FormatTemplate.Control;
import io.refstore.core.cli.format.FormatTemplate.Literal;
import io.refstore.core.cli.format.FormatTemplate.Rich;
import io.refstore.core.cli.format.FormatTemplate.Segment;

/**
 * Renders a rich format for one ref: {@code %(if)...%(then)...%(else)...%(end)} and
 * {@code %(align)...%(end)} nest as a stack of buffers, and values are quoted
 * ({@code --shell} ...) only where they land at the top level, a whole
 * {@code %(if)}/{@code %(align)} block being quoted once. Text is kept as bytes in
 * ISO-8859-1 chars. Stateless.
 */
final class FormatRender {

	/** One level of the stack. */
	private static final class Level {

		final Control control;

		final StringBuilder output = new StringBuilder();

		boolean thenSeen;

		boolean elseSeen;

		boolean condition;

		String thenText;

		Level(Control control) {
			this.control = control;
		}

	}

	private FormatRender() {
	}

	static byte[] render(FormatTemplate template, RefFields fields) throws IOException, CommandFailure {
		if (!template.hasControls()) {
			return flat(template, fields);
		}
		FormatQuote quote = template.quote();
		Deque<Level> stack = new ArrayDeque<>();
		stack.push(new Level(null));
		for (Segment segment : template.segments()) {
			if (segment instanceof Literal literal) {
				latin1(stack.peek().output, literal.bytes());
			}
			else if (segment instanceof Atom atom) {
				append(stack, quote, fields.text(atom));
			}
			else if (segment instanceof Rich rich) {
				append(stack, quote, fields.values().value(rich));
			}
			else {
				control((Control) segment, stack, quote);
			}
		}
		if (template.colorLeftOn() && fields.values().context().color()) {
			append(stack, quote, "\033[m");
		}
		if (stack.size() > 1) {
			throw CommandFailure.fatal("format: %(end) atom missing");
		}
		return stack.peek().output.toString().getBytes(StandardCharsets.ISO_8859_1);
	}

	/**
	 * {@link #render} of a format without {@code %(if)} or {@code %(align)}: values go
	 * into one line buffer that the fields keep from ref to ref.
	 */
	private static byte[] flat(FormatTemplate template, RefFields fields) throws IOException, CommandFailure {
		FormatQuote quote = template.quote();
		StringBuilder line = fields.lineBuffer();
		for (Segment segment : template.segments()) {
			if (segment instanceof Literal literal) {
				latin1(line, literal.bytes());
			}
			else {
				append(line, quote,
						(segment instanceof Atom atom) ? fields.text(atom) : fields.values().value((Rich) segment));
			}
		}
		if (template.colorLeftOn() && fields.values().context().color()) {
			append(line, quote, "\033[m");
		}
		return line.toString().getBytes(StandardCharsets.ISO_8859_1);
	}

	/** Appends bytes as the ISO-8859-1 chars that the line's text keeps them in. */
	private static void latin1(StringBuilder out, byte[] bytes) {
		for (byte b : bytes) {
			out.append((char) (b & 0xff));
		}
	}

	/** Appends a value, quoted where the format quotes values. */
	private static void append(StringBuilder out, FormatQuote quote, String value) {
		if (quote != null) {
			quote.append(out, value);
		}
		else {
			out.append(value);
		}
	}

	/** Appends a value to the innermost level: quoted only at the top level. */
	private static void append(Deque<Level> stack, FormatQuote quote, String value) {
		append(stack.peek().output, (stack.size() == 1) ? quote : null, value);
	}

	private static void control(Control control, Deque<Level> stack, FormatQuote quote) throws CommandFailure {
		Level top = stack.peek();
		boolean inIf = top.control != null && top.control.kind().equals("if");
		switch (control.kind()) {
			case "if", "align" -> stack.push(new Level(control));
			case "then" -> {
				if (!inIf) {
					throw CommandFailure.fatal("format: %(then) atom used without a %(if) atom");
				}
				if (top.thenSeen) {
					throw CommandFailure.fatal("format: %(then) atom used more than once");
				}
				if (top.elseSeen) {
					throw CommandFailure.fatal("format: %(then) atom used after %(else)");
				}
				top.thenSeen = true;
				String arg = top.control.arg();
				String text = top.output.toString();
				if (arg == null) {
					top.condition = !text.isBlank();
				}
				else if (arg.startsWith("equals=")) {
					top.condition = text.equals(AtomValues.utf8(arg.substring(7)));
				}
				else {
					top.condition = !text.equals(AtomValues.utf8(arg.substring(10)));
				}
				top.output.setLength(0);
			}
			case "else" -> {
				if (!inIf) {
					throw CommandFailure.fatal("format: %(else) atom used without a %(if) atom");
				}
				if (!top.thenSeen) {
					throw CommandFailure.fatal("format: %(else) atom used without a %(then) atom");
				}
				if (top.elseSeen) {
					throw CommandFailure.fatal("format: %(else) atom used more than once");
				}
				top.elseSeen = true;
				top.thenText = top.output.toString();
				top.output.setLength(0);
			}
			default -> end(stack, quote);
		}
	}

	private static void end(Deque<Level> stack, FormatQuote quote) throws CommandFailure {
		Level top = stack.peek();
		if (top.control == null) {
			throw CommandFailure.fatal("format: %(end) atom used without corresponding atom");
		}
		String result;
		if (top.control.kind().equals("if")) {
			if (!top.thenSeen) {
				throw CommandFailure.fatal("format: %(if) atom used without a %(then) atom");
			}
			String thenPart = top.elseSeen ? top.thenText : top.output.toString();
			String elsePart = top.elseSeen ? top.output.toString() : "";
			result = top.condition ? thenPart : elsePart;
		}
		else {
			result = align(top.output.toString(), top.control.width(), top.control.position());
		}
		stack.pop();
		append(stack, quote, result);
	}

	private static String align(String text, int width, int position) {
		String decoded = new String(text.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
		int length = decoded.codePointCount(0, decoded.length());
		if (length >= width) {
			return text;
		}
		int pad = width - length;
		return switch (position) {
			case 1 -> " ".repeat(pad / 2) + text + " ".repeat(pad - pad / 2);
			case 2 -> " ".repeat(pad) + text;
			default -> text + " ".repeat(pad);
		};
	}

}
