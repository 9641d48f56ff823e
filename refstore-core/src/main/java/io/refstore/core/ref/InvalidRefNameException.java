package io.refstore.core.ref;

/**
 * A ref name that breaks a rule of {@code git check-ref-format}.
 */
public class InvalidRefNameException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String refName;

	private final RefName.Rule rule;

	public InvalidRefNameException(String refName, RefName.Rule rule) {
		super("invalid ref name '" + RefName.printable(refName) + "': " + rule.description());
		this.refName = refName;
		this.rule = rule;
	}

	/** The rejected name. */
	public String refName() {
		return this.refName;
	}

	/** The rule it breaks. */
	public RefName.Rule rule() {
		return this.rule;
	}

}
