// Issue 21: the Simplified Chinese interface. With the Chinese translation installed, every text
// the window shows (widgets, actions, menus, tooltips, combo box entries, chart axes, legends and
// labels, the "Make it fit" chips, the status bar, dialogs' words) is Chinese: an English word of
// four letters or more is a failure unless it names a product, a unit, a model or GPU of the
// catalog, or is code (an identifier, a file name, a flag). The .ts file itself has no unfinished,
// vanished or obsolete entry, and every translation keeps its source's placeholders, mnemonic,
// line breaks and markup. (translations_current, a CTest of its own, checks that the .ts file
// holds every string of the sources.)

#include "advisorworker.h"
#include "catalog.h"
#include "charts/breakdownchart.h"
#include "charts/componentstyle.h"
#include "charts/sizeaxis.h"
#include "charts/ticklabels.h"
#include "chartspage.h"
#include "document/comparisonactions.h"
#include "document/dialogs.h"
#include "document/language.h"
#include "document/settings.h"
#include "formats/estimate_json.h"
#include "plancontroller.h"
#include "panels/calibrationdialog.h"
#include "panels/comparisonview.h"
#include "panels/controlspanel.h"
#include "panels/enumlabels.h"
#include "panels/fitadvisorpanel.h"
#include "panels/fitchip.h"
#include "panels/logslider.h"
#include "panels/servinggroup.h"
#include "panels/statusline.h"
#include "plancontroller.h"
#include "uitesting.h"

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDomDocument>
#include <QFile>
#include <QFontDatabase>
#include <QFontInfo>
#include <QGuiApplication>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QUndoStack>

using namespace vramplan;
using namespace vramplan::ui;
using namespace vramplan::test;

namespace {

const QString tsPath = QStringLiteral(VRAMPLAN_TEST_DATA "/../../translations/vramplan_zh_CN.ts");

// Words that stay as they are in a Chinese interface: products, libraries and frameworks, units,
// keys, standard ML terms Chinese engineers write in English (token, logits, rank), and the
// tool's own name. Compared without case.
const QStringList allowedWords = {
    // the tool, the languages by their own names, file formats and units
    "vramplan", "English", "JSON", "Markdown", "GiB", "TiB", "PiB", "MiB",
    // keys
    "Ctrl", "Enter",
    // frameworks, libraries, engines, kernels, APIs
    "PyTorch", "torch", "autocast", "DeepSpeed", "FSDP", "FSDP2", "Megatron", "LitGPT", "Lightning",
    "torchtune", "torchtitan", "torchao", "transformers", "Trainer", "accelerate", "PEFT",
    "Unsloth", "Liger", "Axolotl", "vLLM", "SGLang", "bitsandbytes", "FlashAttention", "SDPA",
    "eager", "generate", "CUDA", "NVIDIA", "NVMe", "safetensors", "dropout", "gather",
    // optimizers, methods, quantisations, layers
    "Adam", "AdamW", "Adafactor", "Lion", "Muon", "Shampoo", "LoRA", "QLoRA", "ZeRO", "GPTQ",
    "GEMM", "GEMMs", "RMSNorm", "SwiGLU", "GeGLU", "RoPE", "rope", "Mamba", "DeltaNet",
    // the libraries About names, with their licences, and the CUDA call paged states use
    "QCustomPlot", "nlohmann", "json", "LGPL", "cudaMallocManaged",
    // the guide's sources (authors' names), hardware and library terms, an API name
    "Korthikanti", "Rajbhandari", "Micikevicius", "Dettmers", "Apple", "NCCL", "PCIe",
    "softmax", "autograd", "foreach",
    // post-training algorithms and frameworks by their own names (GRPO, ORPO, RLOO,
    // REINFORCE++; verl, OpenRLHF, ms-swift)
    "GRPO", "ORPO", "RLOO", "REINFORCE", "verl", "OpenRLHF", "swift",
    // standard terms of the field, as Chinese engineers write them
    "token", "tokens", "logit", "logits", "rank",
    // LoRA target module names in a tooltip
    "query", "value"};
// Names of more than one word, taken out before the words are looked at.
const QStringList allowedPhrases = {
    "Hugging Face", "Transformer Engine", "Cut Cross-Entropy", "LLaMA-Factory",  "Liger-Kernel",
    "Megatron-LM",  "Megatron-Core",      "ZeRO-Infinity",     "Gated DeltaNet", "nvidia-smi",
    "CUDA Graph",   "all-linear",         "all-gather",        "Transformer",
    "flash attention", "ring attention", "Tensor Core"};

// The catalog's model and GPU names (and ids): data, shown as they are.
QSet<QString> catalogWords()
{
    QSet<QString> words;
    const auto add = [&](const std::string &text) {
        for (const QString &w : QString::fromStdString(text).split(
                 QRegularExpression(QStringLiteral("[^A-Za-z]+")), Qt::SkipEmptyParts))
            words.insert(w.toLower());
    };
    for (const auto &preset : Catalog::builtin().presets()) {
        add(preset.name);
        add(preset.id);
    }
    for (const auto &gpu : Catalog::builtin().gpus()) {
        add(gpu.name);
        add(gpu.id);
    }
    return words;
}

QString plain(const QString &text)
{
    // Code (<tt>zero_grad(set_to_none=True)</tt>) is written as code in any language.
    static const QRegularExpression code(QStringLiteral("<tt>.*?</tt>|&lt;tt&gt;.*?&lt;/tt&gt;"));
    QString out = text;
    out.replace(code, QStringLiteral(" "));
    if (Qt::mightBeRichText(out) || out.contains(QLatin1String("&nbsp;")))
        out = QTextDocumentFragment::fromHtml(out).toPlainText();
    // Mnemonics: "文件(&F)", "以 &GiB 为单位".
    out.replace(QLatin1String("&&"), QLatin1String("\x01"));
    out.remove(QLatin1Char('&'));
    return out;
}

// The English words of four letters or more in `text` that are none of the allowed ones, `data`
// (what the estimator or the user wrote: names, formulas, the advisor's reasons) left out.
QStringList englishWords(const QString &text, const QStringList &data = {})
{
    static const QSet<QString> catalog = catalogWords();
    static const QSet<QString> allowed = [] {
        QSet<QString> set;
        for (const QString &w : allowedWords)
            set.insert(w.toLower());
        return set;
    }();
    // A label broken over lines ("Llama-3.1-8B served by vLLM on\n1 x H100-80GB") is one text;
    // the longest data first, as a shorter one may be part of it.
    QString rest = plain(text).replace(QLatin1Char('\n'), QLatin1Char(' '));
    QStringList longestFirst = data;
    std::sort(longestFirst.begin(), longestFirst.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &written : longestFirst)
        if (!written.isEmpty())
            rest.replace(written, QStringLiteral(" "));
    // Data elided to fit ("Llama-3.1-8B served by vLLM on …"): each piece is part of it.
    if (rest.contains(QChar(0x2026))) {
        QStringList pieces = rest.split(QChar(0x2026));
        for (QString &piece : pieces)
            if (std::any_of(longestFirst.begin(), longestFirst.end(),
                            [&](const QString &w) { return w.contains(piece.trimmed()); }))
                piece.clear();
        rest = pieces.join(QLatin1Char(' '));
    }
    for (const QString &phrase : allowedPhrases)
        rest.replace(phrase, QStringLiteral(" "), Qt::CaseInsensitive);
    QStringList found;
    // Runs of ASCII letters, digits and joiners: "Llama-3.1-8B", "q_proj", "--enforce-eager".
    static const QRegularExpression runs(QStringLiteral("[A-Za-z0-9_.\\-/+*()]+"));
    for (auto it = runs.globalMatch(rest); it.hasNext();) {
        const QString run = it.next().captured();
        // Code: identifiers, file names, flags, calls ("max_model_len", "config.json",
        // "--quantization", "generate()").
        if (run.contains(QLatin1Char('_')) || run.contains(QLatin1Char('.')) ||
            run.startsWith(QLatin1String("--")) || run.contains(QLatin1String("()")) ||
            run.contains(QLatin1Char('*')))
            continue;
        for (const QString &part :
             run.split(QRegularExpression(QStringLiteral("[-/+()]")), Qt::SkipEmptyParts)) {
            if (part.contains(QRegularExpression(QStringLiteral("[0-9]"))))
                continue; // "H100", "80GB", "fp16", "8B", "1F1B"
            if (part.size() >= 4 && !allowed.contains(part.toLower()) &&
                !catalog.contains(part.toLower()))
                found << part;
        }
    }
    return found;
}

// Every text a plot draws: axis titles and tick labels, legend entries, text elements of its
// layout, text items.
void plotTexts(QCustomPlot *plot, const QString &where, QList<QPair<QString, QString>> &out)
{
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes()) {
            out.append({where + QStringLiteral(" axis"), axis->label()});
            if (auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>())
                for (const QString &label : ticker->ticks())
                    out.append({where + QStringLiteral(" tick"), label});
        }
    }
    for (int i = 0; plot->legend->visible() && i < plot->legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
            out.append({where + QStringLiteral(" legend"), item->plottable()->name()});
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(element))
            out.append({where + QStringLiteral(" text"), text->text()});
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            out.append({where + QStringLiteral(" label"), text->text()});
}

void actionTexts(QAction *action, const QString &where, QList<QPair<QString, QString>> &out)
{
    out.append({where + QStringLiteral(" action"), action->text()});
    out.append({where + QStringLiteral(" action tip"), action->toolTip()});
    out.append({where + QStringLiteral(" action status"), action->statusTip()});
    if (QMenu *menu = action->menu()) {
        out.append({where + QStringLiteral(" menu"), menu->title()});
        for (QAction *sub : menu->actions())
            actionTexts(sub, where + QStringLiteral(" > ") + plain(menu->title()), out);
    }
}

// Every text `top` and the widgets in it show or hold: their own, their tooltips, their entries.
QList<QPair<QString, QString>> shownTexts(QWidget *top)
{
    QList<QPair<QString, QString>> out;
    QList<QWidget *> widgets = top->findChildren<QWidget *>();
    widgets.prepend(top);
    for (QWidget *w : widgets) {
        const QString where =
            QString::fromLatin1(w->metaObject()->className()) +
            (w->objectName().isEmpty() ? QString() : QLatin1Char(' ') + w->objectName());
        if (w->isWindow())
            out.append({where + QStringLiteral(" title"), w->windowTitle()});
        out.append({where + QStringLiteral(" tooltip"), w->toolTip()});
        out.append({where + QStringLiteral(" what's this"), w->whatsThis()});
        out.append({where + QStringLiteral(" status tip"), w->statusTip()});
        if (auto *label = qobject_cast<QLabel *>(w))
            out.append({where, label->text()});
        if (auto *chip = qobject_cast<FitChip *>(w)) {
            out.append({where, chip->title()});
            out.append({where, chip->detail()});
        } else if (auto *button = qobject_cast<QAbstractButton *>(w)) {
            out.append({where, button->text()});
        }
        if (auto *group = qobject_cast<QGroupBox *>(w))
            out.append({where, group->title()});
        if (auto *edit = qobject_cast<QLineEdit *>(w)) {
            out.append({where, edit->text()});
            out.append({where + QStringLiteral(" placeholder"), edit->placeholderText()});
        }
        if (auto *spin = qobject_cast<QAbstractSpinBox *>(w))
            out.append({where + QStringLiteral(" special value"), spin->specialValueText()});
        if (auto *spin = qobject_cast<QSpinBox *>(w))
            out.append({where + QStringLiteral(" suffix"), spin->suffix()});
        if (auto *spin = qobject_cast<QDoubleSpinBox *>(w))
            out.append({where + QStringLiteral(" suffix"), spin->suffix()});
        if (auto *box = qobject_cast<QComboBox *>(w)) {
            for (int i = 0; i < box->count(); ++i) {
                out.append({where + QStringLiteral(" entry"), box->itemText(i)});
                out.append({where + QStringLiteral(" entry tip"),
                            box->itemData(i, Qt::ToolTipRole).toString()});
            }
        }
        if (auto *tabs = qobject_cast<QTabBar *>(w)) {
            for (int i = 0; i < tabs->count(); ++i) {
                out.append({where + QStringLiteral(" tab"), tabs->tabText(i)});
                out.append({where + QStringLiteral(" tab tip"), tabs->tabToolTip(i)});
            }
        }
        if (auto *list = qobject_cast<QListWidget *>(w))
            for (int i = 0; i < list->count(); ++i)
                out.append({where + QStringLiteral(" item"), list->item(i)->text()});
        if (auto *table = qobject_cast<QTableWidget *>(w)) {
            for (int r = 0; r < table->rowCount(); ++r) {
                if (QTableWidgetItem *header = table->verticalHeaderItem(r))
                    out.append({where + QStringLiteral(" row"), header->text()});
                for (int c = 0; c < table->columnCount(); ++c)
                    if (QTableWidgetItem *item = table->item(r, c))
                        out.append({where + QStringLiteral(" cell"), item->text()});
            }
        }
        if (auto *status = qobject_cast<QStatusBar *>(w))
            out.append({where + QStringLiteral(" message"), status->currentMessage()});
        if (auto *plot = qobject_cast<QCustomPlot *>(w))
            plotTexts(plot, where, out);
        for (QAction *action : w->actions())
            actionTexts(action, where, out);
    }
    return out;
}

// "where: text [words]" for every text with an English word in it, `data` left out.
QStringList untranslated(const QList<QPair<QString, QString>> &texts, const QStringList &data = {})
{
    QStringList problems;
    for (const auto &[where, text] : texts) {
        const QStringList words = englishWords(text, data);
        if (!words.isEmpty())
            problems
                << QStringLiteral("%1: \"%2\" [%3]").arg(where, text, words.join(QLatin1Char(',')));
    }
    problems.removeDuplicates();
    return problems;
}

// What the estimator and the user wrote that the window shows as it is: the scenarios' own
// names, and the advisor's reasons and changes (core data, English by design).
QStringList writtenData(const MainWindow &w)
{
    QStringList data{QString::fromStdString(w.scenario().name)};
    for (const auto &entry : w.comparisonView()->comparison().entries)
        data << QString::fromStdString(entry.label);
    const Advice &advice = w.fitAdvisor()->result().advice;
    std::vector<const Suggestion *> suggestions;
    for (const Suggestion &s : advice.suggestions)
        suggestions.push_back(&s);
    if (advice.hasNearest)
        suggestions.push_back(&advice.nearest);
    for (const Suggestion *s : suggestions) {
        data << QString::fromStdString(s->costBasis);
        for (const auto &[path, value] : s->changes) {
            const std::string shown = value.is_string() ? value.get<std::string>() : value.dump();
            data << QString::fromStdString(path + " = " + shown);
            // A change the chips have no phrase for, as the command line prints it.
            data << QString::fromStdString(path.substr(path.find('.') + 1) + " " + shown);
        }
    }
    // The estimator's warnings, shown on the status line and the controls they concern.
    for (const Warning &warning : w.controller()->estimate().warnings)
        data << QString::fromStdString(warningText(warning));
    return data;
}

bool adviceLanded(MainWindow &w)
{
    return QTest::qWaitFor([&] { return w.advisorWorker()->idle() && !w.fitAdvisor()->pending(); },
                           20000);
}

// %1 ... %99, %n and %L1: what .arg() and tr() fill in.
QStringList placeholders(const QString &text)
{
    QStringList found;
    static const QRegularExpression marker(QStringLiteral("%L?(\\d+|n)"));
    for (auto it = marker.globalMatch(text); it.hasNext();)
        found << it.next().captured();
    found.sort();
    return found;
}

QStringList tags(const QString &text)
{
    QStringList found;
    static const QRegularExpression tag(QStringLiteral("</?([a-z]+)"));
    for (auto it = tag.globalMatch(text); it.hasNext();)
        found << it.next().captured();
    found.sort();
    return found;
}

bool hasMnemonic(const QString &text)
{
    return QString(text)
        .remove(QLatin1String("&&"))
        .contains(QRegularExpression(QStringLiteral("&[^ &;]")));
}

} // namespace

class TestTranslation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void translationFileIsComplete();
    void keyLabelsAreChinese();
    void nothingEnglishIsLeft_data();
    void nothingEnglishIsLeft();
    void dialogsAndMessages();
    void languageFollowsTheSystemOrTheChoice();
    void languageMenuSavesTheChoice();
};

void TestTranslation::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_translation"));
    const QString before = QFontInfo(QGuiApplication::font()).family();
    QCOMPARE(installTranslations(Language::SimplifiedChinese), QStringLiteral("zh_CN"));
    // A font with Chinese letters (tools/install-deps.sh installs fonts-noto-cjk), the
    // application's own or one put in its place.
    if (!QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty())
        QVERIFY2(QFontDatabase::writingSystems(QFontInfo(QGuiApplication::font()).family())
                     .contains(QFontDatabase::SimplifiedChinese),
                 qPrintable(before + QStringLiteral(" -> ") +
                            QFontInfo(QGuiApplication::font()).family()));
    if (!qtTranslationInstalled())
        qWarning("Qt's own Chinese translation (qt6-translations-l10n) is not installed: "
                 "standard buttons stay English");
}

void TestTranslation::cleanupTestCase()
{
    installTranslations(Language::English);
}

void TestTranslation::translationFileIsComplete()
{
    QFile file(tsPath);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(tsPath));
    QDomDocument ts;
    QVERIFY(ts.setContent(&file));
    QCOMPARE(ts.documentElement().attribute(QStringLiteral("language")), QStringLiteral("zh_CN"));
    const QDomNodeList messages = ts.elementsByTagName(QStringLiteral("message"));
    QStringList problems;
    int numerus = 0;
    for (int i = 0; i < messages.size(); ++i) {
        const QDomElement message = messages.at(i).toElement();
        const QString context =
            message.parentNode().firstChildElement(QStringLiteral("name")).text();
        const QString source = message.firstChildElement(QStringLiteral("source")).text();
        const QDomElement translation = message.firstChildElement(QStringLiteral("translation"));
        const QString where = context + QStringLiteral(": ") + source;
        if (translation.isNull()) {
            problems << where + QStringLiteral(" (no translation)");
            continue;
        }
        // lupdate marks new strings "unfinished" and removed ones "vanished" (or "obsolete").
        if (translation.hasAttribute(QStringLiteral("type")))
            problems << where + QStringLiteral(" (%1)").arg(
                                    translation.attribute(QStringLiteral("type")));
        QStringList forms;
        if (message.attribute(QStringLiteral("numerus")) == QLatin1String("yes")) {
            ++numerus;
            const QDomNodeList nodes = translation.elementsByTagName(QStringLiteral("numerusform"));
            for (int f = 0; f < nodes.size(); ++f)
                forms << nodes.at(f).toElement().text();
            if (forms.size() != 1) // Chinese has one plural form
                problems << where + QStringLiteral(" (%1 plural forms)").arg(forms.size());
        } else {
            forms << translation.text();
        }
        for (const QString &text : forms) {
            if (text.isEmpty()) {
                problems << where + QStringLiteral(" (empty)");
                continue;
            }
            if (placeholders(text) != placeholders(source))
                problems << where + QStringLiteral(" (placeholders: %1)").arg(text);
            if (hasMnemonic(text) != hasMnemonic(source))
                problems << where + QStringLiteral(" (mnemonic: %1)").arg(text);
            if (text.count(QLatin1Char('\n')) != source.count(QLatin1Char('\n')))
                problems << where + QStringLiteral(" (line breaks: %1)").arg(text);
            if (tags(text) != tags(source))
                problems << where + QStringLiteral(" (markup: %1)").arg(text);
            // The values --chart takes are code: "--chart breakdown".
            const QStringList charts =
                source.contains(QLatin1String("breakdown, batch")) ||
                        source.contains(QLatin1String("curves are"))
                    ? QStringList{"breakdown",   "batch",     "sequence",       "gpus",
                                  "timeline",    "comparison", "concurrency",   "kv-tokens",
                                  "tensor-parallel"}
                    : QStringList();
            if (const QStringList words = englishWords(text, charts); !words.isEmpty())
                problems << where +
                                QStringLiteral(" (English: %1)").arg(words.join(QLatin1Char(',')));
        }
    }
    qInfo("%lld strings translated (%d with plural forms)", qlonglong(messages.size()), numerus);
    QVERIFY(messages.size() > 700);
    // One line each: Qt Test cuts a long failure message short.
    for (const QString &problem : problems)
        qWarning("%s", qPrintable(problem));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    // The build compiled it in.
    QVERIFY(QFile::exists(QStringLiteral(":/i18n/vramplan_zh_CN.qm")));
}

void TestTranslation::keyLabelsAreChinese()
{
    MainWindow w;
    w.setAutosavePath(QString());
    w.setUnit(Unit::GiB);
    w.setScenario(defaultScenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    QVERIFY(adviceLanded(w));
    QStringList menus;
    for (QAction *action : w.menuBar()->actions())
        menus << action->text();
    QCOMPARE(menus, (QStringList{QStringLiteral("文件(&F)"), QStringLiteral("编辑(&E)"),
                                 QStringLiteral("对比(&C)"), QStringLiteral("视图(&V)"),
                                 QStringLiteral("帮助(&H)")}));
    auto *pages = qobject_cast<QTabWidget *>(w.chartsPage()->parentWidget()->parentWidget());
    QVERIFY(pages);
    QCOMPARE(pages->tabText(0), QStringLiteral("规划"));
    QCOMPARE(pages->tabText(1), QStringLiteral("对比"));
    QTabBar *curveTabs = w.chartsPage()->curveTabs()->tabBar();
    QCOMPARE(curveTabs->tabText(0), QStringLiteral("微批次"));
    QCOMPARE(curveTabs->tabText(1), QStringLiteral("序列长度"));
    QCOMPARE(componentName(Component::Parameters), QStringLiteral("参数"));
    QCOMPARE(componentName(Component::Gradients), QStringLiteral("梯度"));
    QCOMPARE(componentName(Component::OptimizerStates), QStringLiteral("优化器状态"));
    QCOMPARE(componentName(Component::Activations), QStringLiteral("激活值"));
    QCOMPARE(componentName(Component::KvCache), QStringLiteral("KV 缓存"));
    QCOMPARE(phaseName(Phase::LossBackward), QStringLiteral("反向开始（损失）"));
    QCOMPARE(memoryPerGpuLabel(), QStringLiteral("每 GPU 显存"));
    QCOMPARE(w.breakdownChart()->plot()->yAxis->label(), QStringLiteral("每 GPU 显存（GiB）"));
    QCOMPARE(enumLabel(Recompute::Selective), QStringLiteral("选择性"));
    QCOMPARE(enumLabel(FinetuneMethod::Full), QStringLiteral("全参数"));
    QCOMPARE(w.controls()->modeBox()->itemText(0), QStringLiteral("训练"));
    QCOMPARE(w.controls()->modeBox()->itemText(1), QStringLiteral("推理"));
    QCOMPARE(w.controls()->precisionBox()->currentText(), QStringLiteral("bf16 混合精度"));
    // The default scenario does not fit on one H100.
    QVERIFY2(w.statusText().startsWith(QStringLiteral("每 GPU 峰值 ")), qPrintable(w.statusText()));
    QVERIFY2(w.statusText().contains(QStringLiteral("放不下：超出 ")), qPrintable(w.statusText()));
    QVERIFY(w.fitAdvisor()->solverTexts().contains(
        QStringLiteral("最大微批次：放不下，即使为 1 也不行")));
    // The bundled scenario's English name follows its settings: it reads in Chinese.
    QVERIFY2(w.windowTitle().startsWith(
                 QStringLiteral("Llama-3.1-8B，全参数微调，bf16 混合精度，AdamW，1 x H100-80GB")),
             qPrintable(w.windowTitle()));
    // An edit, and its undo step.
    QUndoStack *stack = w.undoStack();
    QAction *undo = nullptr;
    for (QAction *action : w.findChildren<QAction *>())
        if (action->text() == QStringLiteral("撤销"))
            undo = action;
    QVERIFY(undo);
    w.controls()->microBatch()->spinBox()->setValue(2);
    QVERIFY(stack->count() > 0);
    QCOMPARE(undo->text(), QStringLiteral("撤销 更改微批次"));
    stack->undo();
    QCOMPARE(undo->text(), QStringLiteral("撤销"));
}

void TestTranslation::nothingEnglishIsLeft_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("preview");
    QTest::newRow("default") << QStringLiteral("default") << QSize(1280, 800) << true;
    QTest::newRow("default, small window")
        << QStringLiteral("default") << QSize(1024, 640) << false;
    QTest::newRow("screenshot: MoE, LoRA")
        << QStringLiteral("screenshot") << QSize(1280, 800) << true;
    QTest::newRow("ZeRO-3 on 4 GPUs")
        << QStringLiteral("llama-2-7b-zero3-4gpu") << QSize(1280, 800) << false;
    QTest::newRow("vLLM") << QStringLiteral("llama-3.1-8b-vllm-h100") << QSize(1280, 800) << false;
    QTest::newRow("inference, no engine")
        << QStringLiteral("{\"format\":\"vramplan-scenario\",\"model\":{\"preset\":\"qwen3-8b\"},"
                          "\"training\":{\"mode\":\"inference\"}}")
        << QSize(1280, 800) << false;
    // Multi-head latent attention, experts spread unevenly over 8 expert-parallel ranks.
    QTest::newRow("DeepSeek-V3, EP 8, imbalance")
        << QStringLiteral("{\"format\":\"vramplan-scenario\",\"model\":{\"preset\":\"deepseek-v3\","
                          "\"moe\":{\"imbalance\":1.5}},\"training\":{\"micro_batch_size\":1,"
                          "\"activation_recompute\":\"full\"},\"parallelism\":{\"gpus\":256,"
                          "\"expert_parallel\":8,\"pipeline_parallel\":8,\"zero_stage\":1},"
                          "\"framework\":\"megatron\",\"gpu\":{\"preset\":\"h800-80gb\"}}")
        << QSize(1280, 800) << false;
    // A hybrid with a vision tower: the architecture notes.
    QTest::newRow("Qwen3.5 hybrid")
        << QStringLiteral(
               "{\"format\":\"vramplan-scenario\",\"model\":{\"preset\":\"qwen3.5-35b-a3b\"},"
               "\"training\":{\"finetune\":{\"method\":\"qlora\"}},"
               "\"gpu\":{\"preset\":\"h20-96gb\"}}")
        << QSize(1280, 800) << false;
}

void TestTranslation::nothingEnglishIsLeft()
{
    QFETCH(QString, scenario);
    QFETCH(QSize, size);
    QFETCH(bool, preview);
    Scenario s;
    if (scenario == QLatin1String("default"))
        s = defaultScenario();
    else if (scenario == QLatin1String("screenshot"))
        s = screenshotScenario();
    else if (scenario.startsWith(QLatin1Char('{')))
        s = parseOrFail(scenario.toStdString());
    else
        s = dataScenario(scenario);
    MainWindow w;
    w.setAutosavePath(QString());
    w.setUnit(Unit::GiB);
    w.setScenario(s);
    QVERIFY(showAt(w, size));
    QVERIFY(adviceLanded(w));
    replotAll(w);
    keepShot(w, QStringLiteral("zh-plan-%1").arg(QString::fromLatin1(QTest::currentDataTag())));
    QStringList problems = untranslated(shownTexts(&w), writtenData(w));
    // Every curve tab and the comparison page drawn too.
    QTabWidget *curves = w.chartsPage()->curveTabs();
    for (int i = 0; i < curves->count(); ++i) {
        curves->setCurrentIndex(i);
        replotAll(w);
        problems << untranslated(shownTexts(curves->widget(i)), writtenData(w));
    }
    // The suggestion previewed on the breakdown, as hovering its chip does.
    if (preview && !w.fitAdvisor()->chips().isEmpty()) {
        const AdviceResult &result = w.fitAdvisor()->result();
        QVERIFY(!result.estimates.empty());
        w.breakdownChart()->setPreview(result.estimates.front(),
                                       w.fitAdvisor()->chips().front()->title());
        replotAll(w);
        problems << untranslated(shownTexts(w.breakdownChart()), writtenData(w));
        w.breakdownChart()->clearPreview();
    }
    // Two scenarios compared (the current one, and it with a larger micro-batch).
    w.comparisonActions()->addCurrent();
    Scenario other = w.scenario();
    other.training.microBatchSize *= 2;
    other.name.clear();
    w.setScenario(other);
    w.comparisonActions()->addCurrent();
    w.showComparison();
    replotAll(w);
    problems << untranslated(shownTexts(w.comparisonView()), writtenData(w));
    keepShot(w, QStringLiteral("zh-compare-%1").arg(QString::fromLatin1(QTest::currentDataTag())));
    problems.removeDuplicates();
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestTranslation::dialogsAndMessages()
{
    MainWindow w;
    w.setAutosavePath(QString());
    w.setScenario(defaultScenario());
    // The calibration dialog, with a number typed: its fit is worded too.
    CalibrationDialog dialog(w.scenario(), Unit::GiB, &w);
    dialog.show();
    auto *value = dialog.findChild<QDoubleSpinBox *>();
    QVERIFY(value);
    value->setValue(w.controller()->estimate().peak.device * 1.05 / 1073741824.0);
    QVERIFY2(dialog.resultText().startsWith(QStringLiteral("拟合结果：")),
             qPrintable(dialog.resultText()));
    QStringList problems = untranslated(shownTexts(&dialog));
    if (!qtTranslationInstalled())
        problems.removeIf([](const QString &p) {
            return p.startsWith(QLatin1String("QPushButton")); // Qt's own OK / Cancel
        });
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QVERIFY2(dialog.windowTitle() == QStringLiteral("按我的实测校准"),
             qPrintable(dialog.windowTitle()));
    // Help and About (offscreen, the message is recorded rather than shown).
    for (QAction *action : w.findChildren<QAction *>()) {
        const QString text = action->text();
        if (text != QStringLiteral("vramplan 帮助(&H)") &&
            text != QStringLiteral("关于 vramplan(&A)"))
            continue;
        action->trigger();
        const Dialogs::Asked asked = Dialogs::lastAsked();
        const QStringList words = englishWords(asked.caption + QLatin1Char(' ') + asked.text);
        QVERIFY2(words.isEmpty(), qPrintable(words.join(QLatin1Char(','))));
        QVERIFY(asked.text.contains(QStringLiteral("显存")) ||
                asked.text.contains(QStringLiteral("放得下")));
    }
    // A file that cannot be read: the problem in the status bar.
    w.openFile(QStringLiteral(VRAMPLAN_TEST_DATA));
    QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("是文件夹，不是文件")),
             qPrintable(w.statusBar()->currentMessage()));
}

void TestTranslation::languageFollowsTheSystemOrTheChoice()
{
    const QLocale chinese(QLocale::Chinese, QLocale::SimplifiedChineseScript, QLocale::China);
    const QLocale english(QLocale::English, QLocale::UnitedStates);
    QCOMPARE(translationFor(Language::System, chinese), QStringLiteral("zh_CN"));
    QCOMPARE(translationFor(Language::System, QLocale(QStringLiteral("zh_SG"))),
             QStringLiteral("zh_CN"));
    QCOMPARE(translationFor(Language::System, english), QString());
    QCOMPARE(translationFor(Language::System, QLocale(QStringLiteral("de_DE"))), QString());
    // Traditional Chinese is another translation, which vramplan does not have.
    QCOMPARE(translationFor(Language::System, QLocale(QStringLiteral("zh_TW"))), QString());
    QCOMPARE(translationFor(Language::English, chinese), QString());
    QCOMPARE(translationFor(Language::SimplifiedChinese, english), QStringLiteral("zh_CN"));
    for (Language l : {Language::System, Language::English, Language::SimplifiedChinese})
        QCOMPARE(languageFromKey(languageKey(l)), l);
    QCOMPARE(languageFromKey(QStringLiteral("klingon")), Language::System);

    // English installed: the sources' words again; Chinese by the system's locale.
    QCOMPARE(installTranslations(Language::System, english), QString());
    QCOMPARE(componentName(Component::OptimizerStates), QStringLiteral("Optimizer states"));
    QCOMPARE(enumLabel(Recompute::Selective), QStringLiteral("selective"));
    QCOMPARE(installTranslations(Language::System, chinese), QStringLiteral("zh_CN"));
    QCOMPARE(componentName(Component::OptimizerStates), QStringLiteral("优化器状态"));
    QCOMPARE(installedTranslation(), QStringLiteral("zh_CN"));
    // A message in a language not installed.
    QCOMPARE(translatedInto(QString(), "vramplan::ui::ComponentStyle", "Gradients"),
             QStringLiteral("Gradients"));
    QCOMPARE(translatedInto(QStringLiteral("zh_CN"), "vramplan::ui::ComponentStyle", "Gradients"),
             QStringLiteral("梯度"));
}

void TestTranslation::languageMenuSavesTheChoice()
{
    Settings::setLanguage(Language::System);
    MainWindow w;
    w.setAutosavePath(QString());
    w.setScenario(defaultScenario());
    auto *menu = w.findChild<QMenu *>(QStringLiteral("languageMenu"));
    QVERIFY(menu);
    QCOMPARE(menu->title(), QStringLiteral("语言(&L)"));
    QStringList names;
    for (QAction *action : menu->actions())
        names << action->text();
    QCOMPARE(names, (QStringList{QStringLiteral("跟随系统"), QStringLiteral("English"),
                                 QStringLiteral("简体中文")}));
    QVERIFY(menu->actions().at(0)->isChecked());
    // English chosen under the Chinese interface: saved, and said in both languages.
    w.findChild<QAction *>(QStringLiteral("language_en"))->trigger();
    QCOMPARE(Settings::language(), Language::English);
    QVERIFY(menu->actions().at(1)->isChecked());
    const Dialogs::Asked asked = Dialogs::lastAsked();
    QCOMPARE(asked.caption, QStringLiteral("语言"));
    QCOMPARE(asked.text, QStringLiteral("界面语言将在 vramplan 下次启动时更改。\n"
                                        "The language changes when vramplan next starts."));
    QCOMPARE(w.statusBar()->currentMessage(), asked.text);
    // Chinese chosen, which is the one installed: saved, nothing to restart for.
    w.findChild<QAction *>(QStringLiteral("language_zh_CN"))->trigger();
    QCOMPARE(Settings::language(), Language::SimplifiedChinese);
    Settings::setLanguage(Language::System);
}

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
