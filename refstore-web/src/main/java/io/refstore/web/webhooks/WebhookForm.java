package io.refstore.web.webhooks;

import java.util.ArrayList;
import java.util.List;

/** The console's webhook form. */
public class WebhookForm {

	private String name;

	private String url;

	private String secret;

	private List<String> events = new ArrayList<>();

	private String repositories = "*";

	private boolean active = true;

	static WebhookForm of(Webhook webhook) {
		WebhookForm form = new WebhookForm();
		form.name = webhook.name();
		form.url = webhook.url();
		form.events = new ArrayList<>(webhook.events());
		form.repositories = webhook.repositories();
		form.active = webhook.active();
		return form;
	}

	WebhookRequest toRequest() {
		return new WebhookRequest(this.name, this.url, this.secret, this.events, this.repositories, this.active);
	}

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

	public String getUrl() {
		return this.url;
	}

	public void setUrl(String url) {
		this.url = url;
	}

	public String getSecret() {
		return this.secret;
	}

	public void setSecret(String secret) {
		this.secret = secret;
	}

	public List<String> getEvents() {
		return this.events;
	}

	public void setEvents(List<String> events) {
		this.events = (events == null) ? new ArrayList<>() : events;
	}

	public String getRepositories() {
		return this.repositories;
	}

	public void setRepositories(String repositories) {
		this.repositories = repositories;
	}

	public boolean isActive() {
		return this.active;
	}

	public void setActive(boolean active) {
		this.active = active;
	}

}
