#include "panels/presetpicker.h"

#include "catalog.h"
#include "charts/units.h"
#include "model/model_weights.h"
#include "formats/scenario_json.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTimer>

#include <algorithm>

namespace vramplan::ui {
namespace {

// What a search matches: name, id and tags ("moe", "mla", "hybrid", "vision"), lower case;
// empty for "Custom" and the family headers, which are not presets.
constexpr int searchRole = Qt::UserRole + 1;
// A role no item has: the completer's own prefix matching then never marks a row, so the
// popup opens with nothing highlighted and Down goes to the first match.
constexpr int noRole = Qt::UserRole + 2;

// The family a preset is listed under: the letters its id starts with ("qwen" for qwen2.5-7b
// and qwen3-8b, "llama" for llama-2-7b and llama-4-scout), spelled as its name spells them.
QString familyKey(const std::string &id)
{
    QString key;
    for (char c : id) {
        if (c < 'a' || c > 'z')
            break;
        key += QLatin1Char(c);
    }
    return key.isEmpty() ? QString::fromStdString(id) : key;
}

QString familyLabel(const QString &key, const QString &name)
{
    return name.startsWith(key, Qt::CaseInsensitive) ? name.left(key.size()) : key;
}

} // namespace

// A proxy over the picker's items that keeps the presets containing every typed word.
class PresetFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setQuery(const QString &text)
    {
        const QStringList words = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words == m_words)
            return;
        m_words = words;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        const QString key = sourceModel()->index(row, 0, parent).data(searchRole).toString();
        if (key.isEmpty() || m_words.isEmpty())
            return false;
        return std::all_of(m_words.begin(), m_words.end(),
                           [&](const QString &w) { return key.contains(w); });
    }

private:
    QStringList m_words;
};

namespace {

// Shows the entry's own text when one is highlighted or chosen (QCompleter would show the
// completion role, which here is empty).
class PresetCompleter : public QCompleter
{
public:
    using QCompleter::QCompleter;
    QString pathFromIndex(const QModelIndex &index) const override
    {
        return index.data(Qt::DisplayRole).toString();
    }
};

} // namespace

std::optional<ModelConfig> presetModel(const std::string &id)
{
    auto parsed = scenarioFromJson({{"format", "vramplan-scenario"}, {"model", {{"preset", id}}}});
    if (!parsed)
        return std::nullopt;
    return parsed.value->model;
}

QString presetSizeText(const ModelConfig &model)
{
    const ParameterCounts counts = countParameters(model);
    if (!model.isMoe())
        return formatCount(double(counts.total));
    return QObject::tr("%1, %2 active")
        .arg(formatCount(double(counts.total)), formatCount(double(counts.activePerToken)));
}

PresetPicker::PresetPicker(QWidget *parent)
    : QComboBox(parent), m_items(new QStandardItemModel(this)), m_filter(new PresetFilter(this)),
      m_search(new PresetCompleter(this))
{
    setModel(m_items);
    fill();
    setEditable(true);
    setInsertPolicy(QComboBox::NoInsert);
    setMaxVisibleItems(20);
    lineEdit()->setPlaceholderText(tr("Type to search the presets"));
    setToolTip(tr("Type part of a name (qwen3, deepseek, 70b, moe; Ctrl+F from anywhere) to "
                  "list the presets that match; Down and Enter pick one, Enter alone takes the "
                  "first, Esc goes back"));

    m_filter->setSourceModel(m_items);
    m_search->setModel(m_filter);
    m_search->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_search->setCompletionRole(noRole);
    m_search->setMaxVisibleItems(12);
    // QComboBox maps a chosen row through the proxy back to its own row and makes it current.
    setCompleter(m_search);
    // Both lists show whole entries, wider than the box when they must be.
    int widest = 0;
    for (int row = 0; row < m_items->rowCount(); ++row)
        widest = std::max(widest, view()->fontMetrics().horizontalAdvance(itemText(row)));
    for (QAbstractItemView *list : {view(), m_search->popup()}) {
        list->setTextElideMode(Qt::ElideMiddle);
        list->setMinimumWidth(widest + 40);
    }

    connect(lineEdit(), &QLineEdit::textEdited, this,
            [this](const QString &text) { m_filter->setQuery(text); });
    // After QComboBox's own handler, which takes a text that equals an entry.
    connect(lineEdit(), &QLineEdit::returnPressed, this, &PresetPicker::takeFirstMatch);
    // Leaving the field (or Enter on a text that matches nothing) keeps the current choice.
    connect(lineEdit(), &QLineEdit::editingFinished, this, &PresetPicker::restoreText);
}

void PresetPicker::fill()
{
    struct Entry
    {
        QString key, name, id, search;
        double total;
        QString size;
    };
    std::vector<Entry> entries;
    for (const auto &p : Catalog::builtin().presets()) {
        const auto model = presetModel(p.id);
        if (!model)
            continue;
        const double total = double(countParameters(*model).total);
        m_sizes.push_back(total / 1e9);
        const QString name = QString::fromStdString(p.name);
        const QString id = QString::fromStdString(p.id);
        QString search = name.toLower() + QLatin1Char('\n') + id;
        if (model->isMoe())
            search += QStringLiteral("\nmoe");
        if (model->isMla())
            search += QStringLiteral("\nmla");
        // Gated DeltaNet, Mamba2 or short-convolution layers among the attention layers.
        if (model->layerMixers.find_first_of("lmcp") != std::string::npos)
            search += QStringLiteral("\nhybrid");
        if (model->vision.present())
            search += QStringLiteral("\nvision");
        entries.push_back({familyKey(p.id), name, id, search, total, presetSizeText(*model)});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        if (a.key != b.key)
            return a.key < b.key;
        if (a.total != b.total)
            return a.total < b.total;
        return a.name < b.name;
    });

    auto *custom = new QStandardItem(tr("Custom"));
    custom->setData(QString(), Qt::UserRole);
    m_items->appendRow(custom);
    QString family;
    for (const Entry &e : entries) {
        if (e.key != family) {
            family = e.key;
            auto *header = new QStandardItem(familyLabel(e.key, e.name));
            header->setFlags(Qt::NoItemFlags);
            QFont bold = font();
            bold.setBold(true);
            header->setFont(bold);
            m_items->appendRow(header);
        }
        auto *item = new QStandardItem(QStringLiteral("%1 (%2)").arg(e.name, e.size));
        item->setData(e.id, Qt::UserRole);
        item->setData(e.search, searchRole);
        item->setToolTip(e.id);
        m_items->appendRow(item);
    }
}

void PresetPicker::startSearch()
{
    setFocus(Qt::ShortcutFocusReason);
    lineEdit()->selectAll();
}

void PresetPicker::showPreset(const std::string &id)
{
    const QSignalBlocker blocker(this);
    const int index = id.empty() ? 0 : findData(QString::fromStdString(id));
    setCurrentIndex(std::max(0, index));
    restoreText();
}

void PresetPicker::showCustomName(const QString &name)
{
    // The "Custom" entry (the first) carries the name: the field, and the list, show it.
    const QString text = name.isEmpty() ? tr("Custom") : tr("%1 (imported)").arg(name);
    if (m_items->item(0)->text() == text)
        return;
    const QSignalBlocker blocker(this);
    m_items->item(0)->setText(text);
    restoreText();
}

QStringList PresetPicker::matches() const
{
    QStringList out;
    const QAbstractItemModel *shown = m_search->completionModel();
    for (int row = 0; row < shown->rowCount(); ++row)
        out << shown->index(row, 0).data().toString();
    return out;
}

void PresetPicker::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && lineEdit()->text() != itemText(currentIndex())) {
        m_search->popup()->hide();
        restoreText();
        event->accept();
        return;
    }
    QComboBox::keyPressEvent(event);
}

void PresetPicker::focusInEvent(QFocusEvent *event)
{
    QComboBox::focusInEvent(event);
    // A click into the field selects its text, so that typing starts a search rather than
    // appending to the current name (the click itself would place the cursor: hence later).
    if (event->reason() == Qt::MouseFocusReason)
        QTimer::singleShot(0, lineEdit(), &QLineEdit::selectAll);
}

void PresetPicker::takeFirstMatch()
{
    const QString text = lineEdit()->text();
    if (text == itemText(currentIndex()))
        return;
    // A match highlighted with the arrow keys: the completer takes it after this.
    QAbstractItemView *popup = m_search->popup();
    if (popup->isVisible() && popup->currentIndex().isValid())
        return;
    const int exact = findText(text, Qt::MatchFixedString);
    if (exact >= 0 && (m_items->item(exact)->flags() & Qt::ItemIsEnabled)) {
        setCurrentIndex(exact);
        return;
    }
    if (m_filter->rowCount() == 0)
        return; // editingFinished puts the current choice back
    popup->hide();
    setCurrentIndex(m_filter->mapToSource(m_filter->index(0, 0)).row());
}

void PresetPicker::restoreText()
{
    const QString current = itemText(currentIndex());
    if (lineEdit()->text() != current)
        lineEdit()->setText(current);
}

} // namespace vramplan::ui
